"""Reading a VCD back in the tests (tband conv --vcd, as GTKWave's fst2vcd
or sigrok-cli write it out again): signals by scope path and their changes."""
import re
import subprocess


def parse_vcd(text):
    """{path: {"type", "width", "changes": [(t, value)]}} with values as
    written (b101 -> int, r2.5 -> float, 0/1 -> int, events -> 1, x -> None,
    bz -> "z": no value, as tband writes an id signal with nothing active);
    scopes joined with '.', the top scope left out."""
    signals, by_id, scope, now = {}, {}, [], 0
    words = iter(text.split())
    for word in words:
        if word == "$scope":
            next(words)
            scope.append(next(words))
            next(words)
        elif word == "$upscope":
            scope.pop()
            next(words)
        elif word == "$var":
            kind, width, ident, name = next(words), int(next(words)), next(words), next(words)
            while next(words) != "$end":
                pass  # a bit range
            path = ".".join(scope[1:] + [name])
            by_id.setdefault(ident, []).append(path)
            signals[path] = {"type": kind, "width": width, "changes": []}
        elif word in ("$timescale", "$date", "$version", "$comment"):
            while next(words) != "$end":
                pass
        elif word.startswith("#"):
            now = int(word[1:])
        elif word[0] in "bBrR":
            ident = next(words)
            raw = word[1:]
            if word[0] in "rR":
                value = float(raw)
            else:
                value = "z" if set(raw.lower()) == {"z"} else None if set(raw.lower()) & set("xz") else int(raw, 2)
            for path in by_id[ident]:
                signals[path]["changes"].append((now, value))
        elif word[0] in "01xXzZ" and word[1:] in by_id:
            value = None if word[0] in "xXzZ" else int(word[0])
            for path in by_id[word[1:]]:
                signals[path]["changes"].append((now, value))
    return signals


def steps(changes, low_start=True):
    """The changes a viewer shows: undefined values and repeats left out (and
    a first value of 0 unless low_start)."""
    out = []
    for t, v in changes:
        if v is None or (out and out[-1][1] == v) or (not out and not low_start and v == 0):
            continue
        out.append((t, v))
    return out


def wire_paths(vcd_text):
    """path -> identifier of a VCD's 1-bit wires, in declaration order."""
    paths, scope = {}, []
    for line in vcd_text.splitlines():
        words = line.split()
        if words[:2] == ["$scope", "module"]:
            scope.append(words[2])
        elif words[:1] == ["$upscope"]:
            scope.pop()
        elif words[:3] == ["$var", "wire", "1"]:
            paths[".".join(scope[1:] + [words[4]])] = words[3]
        elif words[:1] == ["$enddefinitions"]:
            break
    return paths


def through_gtkwave(vcd):
    """The VCD as GTKWave reads it: vcd2fst (its output, for checking there
    is no complaint), then fst2vcd parsed."""
    fst = vcd.with_suffix(".fst")
    conv = subprocess.run(["vcd2fst", str(vcd), str(fst)], capture_output=True, text=True, timeout=120)
    if conv.returncode != 0:
        raise AssertionError(f"vcd2fst failed ({conv.returncode}): {conv.stdout}{conv.stderr}")
    back = subprocess.run(["fst2vcd", str(fst)], capture_output=True, text=True, timeout=120, check=True)
    return parse_vcd(back.stdout), conv.stdout + conv.stderr


def through_sigrok(logic_vcd):
    """The 1-bit signals of a VCD with nothing else (conv --vcd-logic) as
    libsigrok reads them: {path: [(t, 0|1)]} in the VCD's time. sigrok's
    channels are the wires in declaration order (leaf names only), its times
    samples at 1 GHz from the first time (its downsample option would not
    keep that offset). About 2 s of CPU per 100 ms of trace."""
    text = logic_vcd.read_text()
    declared = list(wire_paths(text).items())
    first = min(t for s in parse_vcd(text).values() for t, _ in s["changes"])
    proc = subprocess.run(["sigrok-cli", "-I", "vcd", "-i", str(logic_vcd), "-O", "vcd"],
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise AssertionError(f"sigrok-cli failed ({proc.returncode}): {proc.stderr}")
    out = "\n".join(line for line in proc.stdout.splitlines() if not line.startswith("META "))
    if "$timescale 1 ns $end" not in out:
        raise AssertionError("sigrok's VCD is not in ns: " + out[:300])
    channels = re.findall(r"\$var wire 1 \S+ (\S+) ", out)
    if len(channels) != len(declared):
        raise AssertionError(f"sigrok read {len(channels)} channels of {len(declared)}")
    counter = iter(range(len(declared)))
    read = parse_vcd(re.sub(r"(\$var wire 1 \S+ )\S+", lambda m: f"{m.group(1)}ch{next(counter)}", out))
    return {path: [(t + first, v) for t, v in read[f"ch{i}"]["changes"]]
            for i, (path, _ident) in enumerate(declared)}
