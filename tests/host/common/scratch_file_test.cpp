#include "common/scratch_file.hpp"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

namespace tband {
namespace {

namespace fs = std::filesystem;

// A folder of this test's own as $TMPDIR, so what is left in it is ours.
class ScratchFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / ("tband_scratch_test_" + std::to_string(::getpid()));
    fs::create_directories(folder_);
    const char* old = std::getenv("TMPDIR");
    old_tmpdir_ = old != nullptr ? old : "";
    had_tmpdir_ = old != nullptr;
    ::setenv("TMPDIR", folder_.c_str(), 1);
  }
  void TearDown() override {
    if (had_tmpdir_) {
      ::setenv("TMPDIR", old_tmpdir_.c_str(), 1);
    } else {
      ::unsetenv("TMPDIR");
    }
    fs::remove_all(folder_);
  }
  [[nodiscard]] bool folder_empty() const { return fs::is_empty(folder_); }

  fs::path folder_;
  std::string old_tmpdir_;
  bool had_tmpdir_ = false;
};

TEST_F(ScratchFileTest, LivesInTmpdirAndGoesWithTheObject) {
  std::string path;
  {
    const ScratchFile scratch{".pftrace"};
    path = scratch.path();
    EXPECT_EQ(fs::path(path).parent_path(), folder_);
    EXPECT_EQ(fs::path(path).extension(), ".pftrace");
    EXPECT_EQ(fs::path(path).filename().string().rfind("tband-", 0), 0U);
    EXPECT_TRUE(fs::is_regular_file(path));
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(folder_empty());
}

TEST_F(ScratchFileTest, AFileRenamedOverItGoesToo) {
  const fs::path other = folder_ / "written_elsewhere";
  {
    const ScratchFile scratch{".pftrace"};
    std::FILE* f = std::fopen(other.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fclose(f);
    fs::rename(other, scratch.path());
  }
  EXPECT_TRUE(folder_empty());
}

TEST_F(ScratchFileTest, RemovedWhenASignalEndsTheProcess) {
  for (const int sig : {SIGTERM, SIGINT, SIGHUP}) {
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      // As started from a terminal: a shell's background job (ctest under
      // nohup) starts with SIGINT ignored, and an ignored signal ends nothing.
      for (const int s : {SIGTERM, SIGINT, SIGHUP}) {
        std::signal(s, SIG_DFL);
      }
      const ScratchFile scratch{".bin"};
      if (!fs::is_regular_file(scratch.path())) {
        std::_Exit(3);
      }
      std::raise(sig);
      std::_Exit(4);  // not reached: the signal ends the process
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status)) << "signal " << sig << ": exit " << WEXITSTATUS(status);
    EXPECT_EQ(WTERMSIG(status), sig);
    EXPECT_TRUE(folder_empty()) << "signal " << sig;
  }
}

TEST_F(ScratchFileTest, AMissingFolderIsSaid) {
  ::setenv("TMPDIR", (folder_ / "missing").c_str(), 1);
  try {
    const ScratchFile scratch{".pftrace"};
    FAIL() << "made " << scratch.path();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find((folder_ / "missing").string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("No such file"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tband
