// What a backend provides, in namespace tband::rt::backend, and the
// compile-time check of the one selected (backend.hpp includes this after it).
// Everything is resolved at compile time: no function pointers per event.
//
//   class CoreLock         held while a core handles one event: CoreLock(core)
//                          takes the core's backend lock if tracing is on;
//                          active() (bool) says whether it did
//   kReportsCheckEnabled   bool: the slow path checks the on/off switch (one core)
//   kCanDrop               bool: deliver() may come back kDropped (else the
//                          drop handling is left out)
//   kEncodesInPlace        bool: the Writer encodes straight into its buffer
//                          (below); else every frame is encoded first, then delivered
//   accepting()            bool: tracing is on (a hint, checked without the lock)
//   stop_because_full()    called after a write came back kFull
//   metadata_changed(core, const MetadataBuffer&)  after every metadata append
//   class Writer           Writer(core), then:
//     deliver(frame, len, is_metadata)  hands an encoded frame over: a Delivery
//     deliver_report(frame, len)        the same for a report the tracer adds
//   and with kEncodesInPlace also:
//     write<kMaxFramedLen[, kIsEvent]>(encode)  Delivery: encode(out) writes at
//                          most kMaxFramedLen bytes straight into the buffer and
//                          returns their count; kIsEvent false for a report
//     static room_for(n)   bool: n more bytes fit without a flush or a wrap
//     static append_in_place(encode)  encodes there (after room_for() said yes);
//                          these two are the leaf fast path's (hook_body.hpp)
// The backend's C API (start, stop, ...) is its own, declared in tband.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "metadata_buffer.hpp"
#include "runtime.hpp"

namespace tband::rt::backend_contract {

/// Stands for an encoder lambda: writes into out, returns the length.
struct Encode {
  std::size_t operator()(std::uint8_t*) const noexcept { return 0; }
};

/// Whether Op<T> is well-formed and of type R.
template <class R, template <class> class Op, class T, class = void>
struct Gives : std::false_type {};
template <class R, template <class> class Op, class T>
struct Gives<R, Op, T, std::void_t<Op<T>>> : std::is_same<Op<T>, R> {};

template <class L>
using Active = decltype(std::declval<const L&>().active());
template <class W>
using Deliver = decltype(std::declval<W&>().deliver(std::declval<const std::uint8_t*>(), std::size_t{}, bool{}));
template <class W>
using DeliverReport = decltype(std::declval<W&>().deliver_report(std::declval<const std::uint8_t*>(), std::size_t{}));
template <class W>
using WriteEvent = decltype(std::declval<W&>().template write<enc::kMaxFramedLen>(std::declval<Encode&>()));
template <class W>
using WriteReport = decltype(std::declval<W&>().template write<enc::kMaxFramedLen, false>(std::declval<Encode&>()));
template <class W>
using RoomFor = decltype(W::room_for(std::size_t{}));
template <class W>
using AppendInPlace = decltype(W::append_in_place(std::declval<Encode&>()));

template <class T>
inline constexpr bool kIsConstBool = std::is_same_v<T, const bool>;

}  // namespace tband::rt::backend_contract

// The selected backend against the contract. A name that is missing
// altogether fails here too, with the compiler naming it.
namespace tband::rt::backend_contract {

using backend::CoreLock;
using backend::Writer;

static_assert(std::is_constructible_v<CoreLock, unsigned>, "tband backend: CoreLock(unsigned core)");
static_assert(Gives<bool, Active, CoreLock>::value, "tband backend: CoreLock::active() const, returning bool");
static_assert(kIsConstBool<decltype(backend::kReportsCheckEnabled)>, "tband backend: constexpr bool kReportsCheckEnabled");
static_assert(kIsConstBool<decltype(backend::kCanDrop)>, "tband backend: constexpr bool kCanDrop");
static_assert(kIsConstBool<decltype(backend::kEncodesInPlace)>, "tband backend: constexpr bool kEncodesInPlace");
static_assert(std::is_same_v<decltype(backend::accepting()), bool>, "tband backend: bool accepting()");
static_assert(std::is_same_v<decltype(backend::stop_because_full()), void>, "tband backend: void stop_because_full()");
static_assert(std::is_same_v<decltype(backend::metadata_changed(0u, std::declval<const MetadataBuffer&>())), void>,
              "tband backend: void metadata_changed(unsigned core, const MetadataBuffer&)");
static_assert(std::is_constructible_v<Writer, unsigned>, "tband backend: Writer(unsigned core)");
static_assert(Gives<Delivery, Deliver, Writer>::value,
              "tband backend: Delivery Writer::deliver(const std::uint8_t*, std::size_t, bool is_metadata)");
static_assert(Gives<Delivery, DeliverReport, Writer>::value,
              "tband backend: Delivery Writer::deliver_report(const std::uint8_t*, std::size_t)");
static_assert(!backend::kEncodesInPlace || Gives<Delivery, WriteEvent, Writer>::value,
              "tband backend: kEncodesInPlace needs Delivery Writer::write<kMaxFramedLen>(encode)");
static_assert(!backend::kEncodesInPlace || Gives<Delivery, WriteReport, Writer>::value,
              "tband backend: kEncodesInPlace needs Delivery Writer::write<kMaxFramedLen, false>(encode) for reports");
static_assert(!backend::kEncodesInPlace || Gives<bool, RoomFor, Writer>::value,
              "tband backend: kEncodesInPlace needs static bool Writer::room_for(std::size_t)");
static_assert(!backend::kEncodesInPlace || Gives<void, AppendInPlace, Writer>::value,
              "tband backend: kEncodesInPlace needs static void Writer::append_in_place(encode)");

}  // namespace tband::rt::backend_contract
