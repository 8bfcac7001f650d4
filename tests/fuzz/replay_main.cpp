// Runs the fuzz target over every file of the given folders, so the corpus is
// replayed by CTest with any compiler, libFuzzer or not.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  std::size_t inputs = 0;
  for (int i = 1; i < argc; ++i) {
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(argv[i], error)) {
      if (!entry.is_regular_file()) {
        continue;
      }
      std::ifstream file(entry.path(), std::ios::binary);
      const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
      LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
      ++inputs;
    }
    if (error) {
      std::fprintf(stderr, "fuzz_replay: cannot read %s: %s\n", argv[i], error.message().c_str());
      return 1;
    }
  }
  std::printf("fuzz_replay: %zu inputs replayed without a finding\n", inputs);
  return inputs == 0 ? 1 : 0;
}
