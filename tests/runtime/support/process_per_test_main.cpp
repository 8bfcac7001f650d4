// main() for the runtime tests: the tracer's state is static, as on a target
// where it starts fresh at boot, so every test runs in a process of its own.
// Under ctest that is already so (one test per run); run directly, this main
// lists the selected tests (gtest applies --gtest_filter to the list), forks
// once per test and sums up.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

std::vector<std::string> selected_tests(const char* self) {
  const std::string command = std::string("'") + self + "' --gtest_list_tests '--gtest_filter=" +
                              GTEST_FLAG_GET(filter) + "'";
  std::vector<std::string> names;
  FILE* list = popen(command.c_str(), "r");
  if (list == nullptr) {
    return names;
  }
  std::string suite;
  char line[1024];
  while (std::fgets(line, sizeof line, list) != nullptr) {
    std::string text(line);
    text = text.substr(0, text.find_first_of("#\n"));
    while (!text.empty() && text.back() == ' ') {
      text.pop_back();
    }
    if (text.rfind("  ", 0) == 0) {
      names.push_back(suite + text.substr(2));
    } else if (!text.empty()) {
      suite = text;
    }
  }
  pclose(list);
  return names;
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (GTEST_FLAG_GET(list_tests)) {
    return RUN_ALL_TESTS();
  }
  const std::vector<std::string> tests = selected_tests(argv[0]);
  if (tests.size() <= 1) {
    return RUN_ALL_TESTS();
  }
  std::vector<std::string> failed;
  for (const std::string& name : tests) {
    std::fflush(stdout);
    const pid_t child = fork();
    if (child == 0) {
      GTEST_FLAG_SET(filter, name);
      std::_Exit(RUN_ALL_TESTS());
    }
    int status = 0;
    waitpid(child, &status, 0);
    if (child < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      failed.push_back(name);
    }
  }
  std::printf("\n%zu tests, one process each: %zu failed\n", tests.size(), failed.size());
  for (const std::string& name : failed) {
    std::printf("  FAILED %s\n", name.c_str());
  }
  return failed.empty() ? 0 : 1;
}
