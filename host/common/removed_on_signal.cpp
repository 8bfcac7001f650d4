#include "common/removed_on_signal.hpp"

#include <array>
#include <atomic>
#include <csignal>
#include <cstring>

#include <limits.h>
#include <pthread.h>
#include <unistd.h>

namespace tband {

namespace {

// The handler may only make async-signal-safe calls, so the names live in
// fixed slots it can read without locks.
constexpr std::size_t kSlots = 8;
struct Slot {
  std::atomic<bool> used{false};
  std::array<char, PATH_MAX> path{};
};
std::array<Slot, kSlots> g_slots;

extern "C" void remove_files_and_reraise(int signal_number) {
  for (Slot& slot : g_slots) {
    if (slot.used.load()) {
      ::unlink(slot.path.data());
    }
  }
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

// For each signal still at its default action (one that is ignored, as in a
// shell's background job, cannot end the process). Looked at on every
// registration, not once: cheap, and right after a signal's action changed.
void install_handler() {
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction current {};
    if (::sigaction(sig, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) {
      struct sigaction action {};
      action.sa_handler = remove_files_and_reraise;
      sigemptyset(&action.sa_mask);
      ::sigaction(sig, &action, nullptr);
    }
  }
}

}  // namespace

void remove_on_signal(const std::string& path) {
  if (path.size() >= PATH_MAX) {
    return;
  }
  install_handler();
  for (Slot& slot : g_slots) {
    if (!slot.used.load()) {
      std::memcpy(slot.path.data(), path.c_str(), path.size() + 1);
      slot.used.store(true);
      return;
    }
  }
}

void keep_on_signal(const std::string& path) {
  for (Slot& slot : g_slots) {
    if (slot.used.load() && path == slot.path.data()) {
      slot.used.store(false);
      return;
    }
  }
}

SignalsHeld::SignalsHeld() noexcept {
  sigset_t held;
  sigemptyset(&held);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    sigaddset(&held, sig);
  }
  ::pthread_sigmask(SIG_BLOCK, &held, &previous_);
}

SignalsHeld::~SignalsHeld() { ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }

}  // namespace tband
