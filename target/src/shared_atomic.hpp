// Operations on state shared between cores. With several cores they are real
// atomic read-modify-writes with acquire/release ordering. With one core,
// every change happens inside the critical section, so no other context can
// come between a load and a store: relaxed loads and stores do, and the
// tracer needs no exclusive-access loops or barriers (on Cortex-M, LDREX/STREX
// and DMB).
#pragma once

#include <atomic>

#include "runtime.hpp"

namespace tband::rt {

template <class T>
inline T load_shared(const std::atomic<T>& value) noexcept {
  return value.load(kMultiCore ? std::memory_order_acquire : std::memory_order_relaxed);
}

template <class T>
inline void store_shared(std::atomic<T>& value, T desired) noexcept {
  value.store(desired, kMultiCore ? std::memory_order_release : std::memory_order_relaxed);
}

template <class T>
inline T exchange_shared(std::atomic<T>& value, T desired) noexcept {
  if constexpr (kMultiCore) {
    return value.exchange(desired, std::memory_order_acq_rel);
  } else {
    const T old = value.load(std::memory_order_relaxed);
    value.store(desired, std::memory_order_relaxed);
    return old;
  }
}

template <class T>
inline void add_shared(std::atomic<T>& value, T n) noexcept {
  if constexpr (kMultiCore) {
    value.fetch_add(n, std::memory_order_acq_rel);
  } else {
    value.store(static_cast<T>(value.load(std::memory_order_relaxed) + n), std::memory_order_relaxed);
  }
}

template <class T>
inline void increment_shared(std::atomic<T>& value) noexcept {
  add_shared(value, T{1});
}

}  // namespace tband::rt
