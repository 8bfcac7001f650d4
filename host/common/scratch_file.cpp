#include "common/scratch_file.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <unistd.h>

#include "common/removed_on_signal.hpp"

namespace tband {

std::string temporary_folder() {
  const char* dir = std::getenv("TMPDIR");
  return dir != nullptr && *dir != '\0' ? dir : "/tmp";
}

ScratchFile::ScratchFile(std::string_view suffix) {
  const std::string folder = temporary_folder();
  path_ = folder + "/tband-XXXXXX";
  path_ += suffix;
  const SignalsHeld held;  // until the file is registered
  const int fd = ::mkstemps(path_.data(), static_cast<int>(suffix.size()));
  if (fd < 0) {
    const int error = errno;
    throw std::runtime_error("cannot create a temporary file in " + folder + " (" + std::strerror(error) + ")");
  }
  ::close(fd);
  remove_on_signal(path_);
}

ScratchFile::~ScratchFile() {
  ::unlink(path_.c_str());
  keep_on_signal(path_);
}

}  // namespace tband
