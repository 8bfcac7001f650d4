"""A PEP 517 build backend for the tband-codegen package that needs nothing
but Python's standard library, so that `pip install .` works offline and in a
plain venv (no setuptools, no wheel).

The wheel maps the source tree onto the installed package:
    codegen/**/*.py, codegen/templates/**/*.j2  ->  tband_codegen/...
    schema/*.yaml (tband's built-in groups)      ->  tband_codegen/schema/
and adds the tband-codegen command through entry_points.txt. Archives are
reproducible: fixed timestamps and permissions, files in sorted order.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import re
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "tband_codegen"
# 1980-01-01, the earliest time a zip file can hold: archives do not depend on when they were built.
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
SDIST_MTIME = 315532800


# ---- pyproject.toml -------------------------------------------------------------


def _project_without_tomllib(text: str) -> dict:
    """The [project] table of pyproject.toml, for Pythons without tomllib
    (before 3.11). Reads the subset this project's file uses: [table]
    headers, and `key = value` on one line where value is a string, a list
    of strings or an inline table of strings."""
    tables: dict[str, dict] = {}
    current: dict | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        header = re.fullmatch(r"\[([A-Za-z0-9_.-]+)\]", line)
        if header:
            current = tables
            for part in header.group(1).split("."):
                current = current.setdefault(part, {})
            continue
        match = re.fullmatch(r'([A-Za-z0-9_-]+|"[^"]*")\s*=\s*(.+)', line)
        if match is None or current is None:
            raise ValueError(f"pyproject.toml:{number}: cannot read this line without tomllib: {raw!r}")
        key = match.group(1).strip('"')
        current[key] = _toml_value(match.group(2).strip(), number)
    return tables.get("project", {})


def _toml_string(text: str, number: int) -> tuple[str, str]:
    """A basic string at the start of text: (its value, the rest of text)."""
    match = re.match(r'"((?:[^"\\]|\\.)*)"', text)
    if match is None:
        raise ValueError(f"pyproject.toml:{number}: expected a string: {text!r}")
    value = match.group(1).encode().decode("unicode_escape") if "\\" in match.group(1) else match.group(1)
    return value, text[match.end():].lstrip()


def _toml_value(text: str, number: int):
    if text.startswith('"'):
        value, rest = _toml_string(text, number)
        if rest and not rest.startswith("#"):
            raise ValueError(f"pyproject.toml:{number}: unexpected text after a string: {rest!r}")
        return value
    if text.startswith("[") or text.startswith("{"):
        closing = "]" if text.startswith("[") else "}"
        rest = text[1:].lstrip()
        items: list = []
        table: dict = {}
        while not rest.startswith(closing):
            if closing == "}":
                key_match = re.match(r'([A-Za-z0-9_-]+|"[^"]*")\s*=\s*', rest)
                if key_match is None:
                    raise ValueError(f"pyproject.toml:{number}: expected key = value in an inline table")
                key = key_match.group(1).strip('"')
                table[key], rest = _toml_string(rest[key_match.end():], number)
            else:
                value, rest = _toml_string(rest, number)
                items.append(value)
            if rest.startswith(","):
                rest = rest[1:].lstrip()
            elif not rest.startswith(closing):
                raise ValueError(f"pyproject.toml:{number}: expected ',' or '{closing}'")
        return table if closing == "}" else items
    raise ValueError(f"pyproject.toml:{number}: unsupported value (the reader takes strings, lists, tables): {text!r}")


def _project() -> dict:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    try:
        import tomllib
    except ImportError:
        return _project_without_tomllib(text)
    return tomllib.loads(text)["project"]


# ---- what goes in ---------------------------------------------------------------


def _package_files() -> list[tuple[str, Path]]:
    """(path in the wheel, source file), sorted."""
    files = []
    codegen = ROOT / "codegen"
    for path in codegen.rglob("*"):
        if "__pycache__" in path.parts or not path.is_file() or path.suffix not in (".py", ".j2"):
            continue
        files.append((f"{PACKAGE}/{path.relative_to(codegen).as_posix()}", path))
    for path in (ROOT / "schema").glob("*.yaml"):
        files.append((f"{PACKAGE}/schema/{path.name}", path))
    return sorted(files)


def _dist_name(project: dict) -> str:
    return re.sub(r"[-_.]+", "_", project["name"]).lower()


def _metadata(project: dict) -> str:
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project['description']}",
    ]
    if "requires-python" in project:
        lines.append(f"Requires-Python: {project['requires-python']}")
    lines += [f"Requires-Dist: {dependency}" for dependency in project.get("dependencies", [])]
    readme = project.get("readme")
    body = ""
    if readme:
        lines.append("Description-Content-Type: text/markdown")
        body = (ROOT / readme).read_text(encoding="utf-8")
    return "\n".join(lines) + "\n\n" + body


def _dist_info_files(project: dict) -> list[tuple[str, bytes]]:
    info = f"{_dist_name(project)}-{project['version']}.dist-info"
    wheel = "Wheel-Version: 1.0\nGenerator: tband_codegen_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    scripts = project.get("scripts", {})
    entry_points = "[console_scripts]\n" + "".join(f"{name} = {target}\n" for name, target in sorted(scripts.items()))
    return [
        (f"{info}/METADATA", _metadata(project).encode()),
        (f"{info}/WHEEL", wheel.encode()),
        (f"{info}/entry_points.txt", entry_points.encode()),
    ]


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _zip_add(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    entry = zipfile.ZipInfo(name, ZIP_TIME)
    entry.external_attr = 0o644 << 16
    entry.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(entry, data)


# ---- PEP 517 hooks --------------------------------------------------------------


def get_requires_for_build_wheel(config_settings=None) -> list[str]:
    return []


def get_requires_for_build_sdist(config_settings=None) -> list[str]:
    return []


def get_requires_for_build_editable(config_settings=None) -> list[str]:
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None) -> str:
    project = _project()
    for name, data in _dist_info_files(project):
        target = Path(metadata_directory) / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return f"{_dist_name(project)}-{project['version']}.dist-info"


def _build(wheel_directory: str, package_entries: list[tuple[str, bytes]]) -> str:
    project = _project()
    name = f"{_dist_name(project)}-{project['version']}-py3-none-any.whl"
    entries = package_entries + _dist_info_files(project)
    record_name = f"{_dist_name(project)}-{project['version']}.dist-info/RECORD"
    record = "".join(_record_line(n, d) + "\n" for n, d in entries) + f"{record_name},,\n"
    with zipfile.ZipFile(Path(wheel_directory) / name, "w") as archive:
        for entry_name, data in entries:
            _zip_add(archive, entry_name, data)
        _zip_add(archive, record_name, record.encode())
    return name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None) -> str:
    return _build(wheel_directory, [(name, path.read_bytes()) for name, path in _package_files()])


def build_editable(wheel_directory, config_settings=None, metadata_directory=None) -> str:
    """`pip install -e .`: a .pth file and a small finder that maps tband_codegen
    onto this checkout's codegen/ (and the schema/ beside it)."""
    loader = (
        "import importlib.util, sys\n"
        f"_ROOT = {str(ROOT / 'codegen')!r}\n"
        "class _Finder:\n"
        "    @classmethod\n"
        "    def find_spec(cls, name, path=None, target=None):\n"
        f"        if name != {PACKAGE!r}:\n"
        "            return None\n"
        "        return importlib.util.spec_from_file_location(name, _ROOT + '/__init__.py',\n"
        "                                                      submodule_search_locations=[_ROOT])\n"
        "sys.meta_path.append(_Finder)\n"
    )
    entries = [
        (f"_{PACKAGE}_editable.py", loader.encode()),
        (f"_{PACKAGE}_editable.pth", f"import _{PACKAGE}_editable\n".encode()),
    ]
    return _build(wheel_directory, entries)


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_sdist(sdist_directory, config_settings=None) -> str:
    project = _project()
    base = f"{_dist_name(project)}-{project['version']}"
    sources = [ROOT / "pyproject.toml", ROOT / "README.md", Path(__file__).resolve()]
    sources += [path for _, path in _package_files()]
    name = f"{base}.tar.gz"
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as archive:
        entries = [(f"{base}/{p.relative_to(ROOT).as_posix()}", p.read_bytes()) for p in sources]
        pkg_info = _metadata(project).encode()
        entries.append((f"{base}/PKG-INFO", pkg_info))
        for entry_name, data in sorted(entries):
            info = tarfile.TarInfo(entry_name)
            info.size = len(data)
            info.mtime = SDIST_MTIME
            info.mode = 0o644
            archive.addfile(info, io.BytesIO(data))
    with gzip.GzipFile(Path(sdist_directory) / name, "wb", mtime=SDIST_MTIME) as out:
        out.write(buffer.getvalue())
    return name
