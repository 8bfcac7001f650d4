// Spinlock for state shared between cores. Always taken inside the caller's
// critical section, so a core never spins against its own interrupts. With one
// core the critical section is all the protection needed and the lock is empty.
#pragma once

#include <atomic>

namespace tband::rt {

template <bool kMultiCore>
class BasicSpinlock {
 public:
  void lock() noexcept {
    while (flag_.test_and_set(std::memory_order_acquire)) {
    }
  }
  /// True if the lock was free and is now held.
  bool try_lock() noexcept { return !flag_.test_and_set(std::memory_order_acquire); }
  void unlock() noexcept { flag_.clear(std::memory_order_release); }

 private:
  std::atomic_flag flag_ = ATOMIC_FLAG_INIT;
};

template <>
class BasicSpinlock<false> {
 public:
  void lock() noexcept {}
  bool try_lock() noexcept { return true; }
  void unlock() noexcept {}
};

template <class Lock>
class LockGuard {
 public:
  explicit LockGuard(Lock& lock) noexcept : lock_(lock) { lock_.lock(); }
  ~LockGuard() { lock_.unlock(); }
  LockGuard(const LockGuard&) = delete;
  LockGuard& operator=(const LockGuard&) = delete;

 private:
  Lock& lock_;
};

}  // namespace tband::rt
