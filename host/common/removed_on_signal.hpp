// Files that must not outlive the command even when a signal ends it: a
// Ctrl-C (SIGINT), SIGTERM or SIGHUP removes every file registered here,
// then ends the process as the signal would have. Only where nobody else
// handles those signals (tband record takes SIGINT and SIGTERM itself).
#pragma once

#include <string>

#include <signal.h>

namespace tband {

/// Removes `path` if one of those signals ends the process. Up to 8 files at
/// a time; a path of PATH_MAX bytes or more is not registered (the normal
/// paths still remove it).
void remove_on_signal(const std::string& path);

/// Takes `path` off that list (it was removed, or it became the user's file).
void keep_on_signal(const std::string& path);

/// Holds SIGINT, SIGTERM and SIGHUP back on this thread while it lives. Made
/// around creating a file and registering it, so no signal falls between the
/// two and leaves the file behind; one that came meanwhile is delivered when
/// it ends, by then to the handler that removes the file. (A signal sent to
/// the process can still go to another thread: files are made before tband
/// starts any.)
class SignalsHeld {
 public:
  SignalsHeld() noexcept;
  ~SignalsHeld();
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;

 private:
  sigset_t previous_{};
};

}  // namespace tband
