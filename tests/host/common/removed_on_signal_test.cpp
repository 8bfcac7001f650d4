#include "common/removed_on_signal.hpp"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

namespace tband {
namespace {

namespace fs = std::filesystem;

bool make_file(const fs::path& path) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  return f != nullptr && std::fclose(f) == 0;
}

// A signal that arrives while a file is being made and registered waits
// until both are done, then ends the process and takes the file with it:
// the window a Ctrl-C could fall into and leave a temporary file behind.
TEST(SignalsHeld, ASignalMeanwhileComesAfterTheFileIsRegistered) {
  const fs::path folder = fs::temp_directory_path() / ("tband_signals_held_" + std::to_string(::getpid()));
  fs::create_directories(folder);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    const fs::path registered = folder / "registered";
    const fs::path got_past = folder / "got_past_the_signal";
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      for (const int s : {SIGINT, SIGTERM, SIGHUP}) {
        std::signal(s, SIG_DFL);  // as from a terminal (see scratch_file_test.cpp)
      }
      {
        const SignalsHeld held;
        std::raise(sig);  // held: the child goes on
        if (!make_file(registered) || !make_file(got_past)) {
          std::_Exit(3);
        }
        remove_on_signal(registered.string());
      }
      std::_Exit(4);  // not reached: the held signal ends the process here
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status)) << "signal " << sig << ": exit " << WEXITSTATUS(status);
    EXPECT_EQ(WTERMSIG(status), sig);
    EXPECT_TRUE(fs::exists(got_past)) << "signal " << sig << " was not held";
    EXPECT_FALSE(fs::exists(registered)) << "signal " << sig << " left the registered file";
    fs::remove(got_past);
  }
  fs::remove_all(folder);
}

// The mask is as it was once the files are made: signals are not held for good.
TEST(SignalsHeld, TheMaskIsRestored) {
  sigset_t before;
  ASSERT_EQ(::pthread_sigmask(SIG_BLOCK, nullptr, &before), 0);
  { const SignalsHeld held; }
  sigset_t after;
  ASSERT_EQ(::pthread_sigmask(SIG_BLOCK, nullptr, &after), 0);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    EXPECT_EQ(sigismember(&before, sig), sigismember(&after, sig)) << sig;
  }
}

}  // namespace
}  // namespace tband
