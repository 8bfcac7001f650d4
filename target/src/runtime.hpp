// What every part of the tracer shares: the configuration as C++ constants,
// the generated encoder, the spinlock type and the current core.
#pragma once

#include <cstddef>
#include <cstdint>

#include "port.hpp"
#include "spinlock.hpp"
#include "tband_encode.hpp"  // cuts strings at tband_configMAX_STR_LEN

namespace tband::rt {

namespace enc = ::tband::enc;

inline constexpr unsigned kCores = tband_portNUMBER_OF_CORES;
inline constexpr bool kMultiCore = kCores > 1;
using Spinlock = BasicSpinlock<kMultiCore>;

inline constexpr std::uint32_t kDropCntEvery = tband_configTRACE_DROP_CNT_EVERY;
inline constexpr bool kUseMetadataBuf = tband_configUSE_METADATA_BUF == 1;

// Built for size (tband_configOPTIMIZE_FOR_SIZE, by default -Os as firmware
// usually is), the hooks share one body (hook_body.hpp) with the event path
// inlined into it; built for speed, everything is inlined into each hook,
// with the event id a constant. TBAND_SLOW_PATH marks the rarely taken
// branch's code: out of line when built for speed (the hot path keeps nothing
// live across it), inline when built for size (one level less of stack).
#if tband_configOPTIMIZE_FOR_SIZE == 1
inline constexpr bool kOptimizeForSize = true;
#define TBAND_SLOW_PATH __attribute__((always_inline)) inline
#else
inline constexpr bool kOptimizeForSize = false;
#define TBAND_SLOW_PATH __attribute__((noinline)) inline
#endif

// The inline hook bodies differ between the two choices, so every file of the
// tracer must make the same one. Each refers to the symbol of its choice from
// a section that is kept but not loaded (no byte in the image); hooks.cpp
// defines the symbol of its own: a file built the other way fails to link.
#if defined(__ELF__) && defined(__GNUC__)
#if tband_configOPTIMIZE_FOR_SIZE == 1
#define TBAND_BUILD_CHOICE_SYMBOL "tband_built_for_size"
#else
#define TBAND_BUILD_CHOICE_SYMBOL "tband_built_for_speed"
#endif
__asm__(".pushsection .tband_build_choice,\"R\",%progbits\n"
        ".dc.a " TBAND_BUILD_CHOICE_SYMBOL "\n"
        ".popsection");
#endif

inline unsigned current_core() noexcept {
  if constexpr (kMultiCore) {
    return static_cast<unsigned>(tband_portGET_CORE_ID());
  } else {
    return 0;
  }
}

/// `core` as single-core code should see it: the constant 0. Out-of-line
/// functions that pass their core on start with `core = known_core(core)`, so
/// that with one core they keep no core index in a register across calls.
constexpr unsigned known_core(unsigned core) noexcept { return kMultiCore ? core : 0; }

/// The element of a per-core array for `core`; with one core, the only one,
/// so that no index arithmetic is left in single-core code.
template <class T>
constexpr T& per_core(T (&array)[kCores], unsigned core) noexcept {
  return array[known_core(core)];
}

/// What became of an event handed to the backend.
enum class Delivery : std::uint8_t {
  kDelivered,  // in the trace
  kDropped,    // the backend lost it: counted by dropped_evt_cnt
  kFull,       // the snapshot buffer is full: tracing stops, nothing is counted
};

/// Copies n bytes; a loop rather than memcpy so that the tracer needs no C
/// library (and GCC must not turn the loop back into a memcpy call).
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
inline void copy_bytes(std::uint8_t* dst, const std::uint8_t* src, std::size_t n) noexcept {
  // Pointers only: four registers, so that on Cortex-M it needs no stack.
  for (const std::uint8_t* const end = src + n; src != end;) {
    *dst++ = *src++;
  }
}

}  // namespace tband::rt
