#include "schema/schema_files.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace tband {

namespace fs = std::filesystem;

namespace {

bool is_executable(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

// Runs argv with stdout captured and stderr passed through; returns the exit
// status (-1 if it could not start) and the output.
int run_captured(const std::vector<std::string>& argv, std::string& out) {
#ifdef __EMSCRIPTEN__
  (void)argv;  // the WebAssembly converter starts no process: "could not start"
  (void)out;
  return -1;
#else
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) {
    return -1;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[1]);
  std::vector<char*> args;
  for (const std::string& a : argv) {
    args.push_back(const_cast<char*>(a.c_str()));
  }
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  if (spawned != 0) {
    ::close(pipe_fds[0]);
    return -1;
  }
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(pipe_fds[0], buf, sizeof buf);
    if (n > 0) {
      out.append(buf, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  ::close(pipe_fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
#endif
}

/// The descriptor a generator output folder holds, if any.
std::optional<fs::path> descriptor_in(const fs::path& folder) {
  for (const fs::path& candidate : {folder / "descriptor" / "tband_schema.json", folder / "tband_schema.json"}) {
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec)) {
      return candidate;
    }
  }
  return std::nullopt;
}

}  // namespace

std::shared_ptr<const RuntimeSchema> read_descriptor_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    throw SchemaLoadError(path + ": cannot read: " + std::strerror(errno));
  }
  const std::string text{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  return std::make_shared<const RuntimeSchema>(RuntimeSchema::from_descriptor(text, path));
}

std::optional<CodegenCommand> find_codegen(const std::string& exe_dir) {
  if (const char* given = std::getenv("TBAND_CODEGEN"); given != nullptr && *given != '\0') {
    return CodegenCommand{{given}};
  }
  if (!exe_dir.empty() && is_executable(fs::path{exe_dir} / "tband-codegen")) {
    return CodegenCommand{{(fs::path{exe_dir} / "tband-codegen").string()}};
  }
  if (const char* path = std::getenv("PATH")) {
    std::string_view rest{path};
    while (!rest.empty()) {
      const std::size_t colon = rest.find(':');
      const std::string_view dir = rest.substr(0, colon);
      if (!dir.empty() && is_executable(fs::path{dir} / "tband-codegen")) {
        return CodegenCommand{{(fs::path{dir} / "tband-codegen").string()}};
      }
      rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
    }
  }
  return std::nullopt;
}

std::vector<std::shared_ptr<const RuntimeSchema>> load_schema_files(const std::vector<std::string>& paths,
                                                                    const std::optional<CodegenCommand>& codegen) {
  std::vector<std::shared_ptr<const RuntimeSchema>> out;
  std::vector<std::string> yaml;
  for (const std::string& path : paths) {
    std::error_code ec;
    const fs::path p{path};
    if (!fs::exists(p, ec)) {
      throw SchemaLoadError(path + ": no such schema file or folder");
    }
    if (fs::is_directory(p, ec)) {
      if (const auto descriptor = descriptor_in(p)) {
        out.push_back(read_descriptor_file(descriptor->string()));
      } else {
        yaml.push_back(path);
      }
    } else if (p.extension() == ".json") {
      out.push_back(read_descriptor_file(path));
    } else {
      yaml.push_back(path);
    }
  }
  if (yaml.empty()) {
    return out;
  }
  std::string names;
  for (const std::string& y : yaml) {
    names += (names.empty() ? "" : ", ") + y;
  }
  if (!codegen) {
    throw SchemaLoadError(names + ": reading a YAML schema needs tband-codegen (Python 3 with PyYAML), which was "
                          "not found next to tband, on PATH or in $TBAND_CODEGEN; pass the descriptor instead "
                          "(tband-codegen --schema app.yaml --out gen writes gen/descriptor/tband_schema.json)");
  }
  std::vector<std::string> argv = codegen->argv;
  argv.push_back("describe");
  argv.insert(argv.end(), yaml.begin(), yaml.end());
  std::string json;
  const int status = run_captured(argv, json);
  if (status == -1) {
    throw SchemaLoadError(names + ": could not run " + codegen->argv.front());
  }
  if (status != 0) {
    throw SchemaLoadError(names + ": the schema has errors (listed above)");
  }
  out.push_back(std::make_shared<const RuntimeSchema>(RuntimeSchema::from_descriptor(json, names)));
  return out;
}

std::vector<std::string> search_path_candidates(std::string_view search_path,
                                                const std::vector<std::string>& input_paths) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  const auto add = [&](const fs::path& p) {
    std::error_code ec;
    const std::string key = fs::weakly_canonical(p, ec).string();
    if (seen.insert(ec ? p.string() : key).second) {
      out.push_back(p.string());
    }
  };
  const auto add_folder = [&](const fs::path& folder) {
    std::vector<fs::path> found;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
      if (entry.path().extension() == ".json" && entry.is_regular_file(ec)) {
        found.push_back(entry.path());
      }
    }
    std::sort(found.begin(), found.end());
    for (const fs::path& p : found) {
      add(p);
    }
  };
  while (!search_path.empty()) {
    const std::size_t colon = search_path.find(':');
    const fs::path entry{std::string{search_path.substr(0, colon)}};
    search_path = colon == std::string_view::npos ? std::string_view{} : search_path.substr(colon + 1);
    std::error_code ec;
    if (entry.empty()) {
      continue;
    }
    if (fs::is_directory(entry, ec)) {
      add_folder(entry);
      add_folder(entry / "descriptor");
    } else if (fs::is_regular_file(entry, ec)) {
      add(entry);
    }
  }
  for (const std::string& input : input_paths) {
    if (input == "-") {
      continue;
    }
    const fs::path next_to = fs::path{input}.parent_path() / "tband_schema.json";
    std::error_code ec;
    if (fs::is_regular_file(next_to, ec)) {
      add(next_to);
    }
  }
  return out;
}

}  // namespace tband
