// Golden vectors checked at compile time: the encoder is constexpr, so every
// compiler that builds this file (arm-none-eabi-g++ included) proves it
// produces the hand-written bytes.
#include <cstddef>
#include <cstdint>

#include "tband_encode.hpp"

namespace {

// True if encode(buf) writes exactly `expected` (delimiter included).
template <std::size_t N, class Encode>
constexpr bool encodes_to(Encode encode, const std::uint8_t (&expected)[N]) {
  std::uint8_t buf[tband::enc::kMaxFramedLen]{};
  if (encode(buf) != N) {
    return false;
  }
  for (std::size_t i = 0; i < N; ++i) {
    if (buf[i] != expected[i]) {
      return false;
    }
  }
  return true;
}

constexpr std::uint8_t kIsrEnter[] = {0x05, 0x04, 0xB4, 0x24, 0x07, 0x00};
static_assert(encodes_to([](std::uint8_t* b) { return tband::enc::encode_isr_enter(b, 0x1234, 7); }, kIsrEnter),
              "isr_enter(ts=0x1234, isr_id=7)");

constexpr std::uint8_t kValmarker[] = {0x02, 0x0B, 0x04, 0x02, 0xE9, 0x07, 0x00};
static_assert(encodes_to([](std::uint8_t* b) { return tband::enc::encode_valmarker(b, 0, 2, -500); }, kValmarker),
              "valmarker(ts=0, id=2, val=-500)");

// Written by the reference implementation (tests/vectors/reference_baremetal.bin).
constexpr std::uint8_t kIsrName[] = {0x02, 0x03, 0x05, 0x49, 0x53, 0x52, 0x30, 0x00};
static_assert(encodes_to([](std::uint8_t* b) { return tband::enc::encode_isr_name(b, 0, "ISR0"); }, kIsrName),
              "isr_name(0, \"ISR0\")");

constexpr std::uint8_t kCoreZero[] = {0x01, 0x01, 0x01, 0x01, 0x00};
static_assert(encodes_to([](std::uint8_t* b) { return tband::enc::encode_core_id(b, 0, 0); }, kCoreZero),
              "core_id(ts=0, core_id=0)");

static_assert(tband::enc::IsrEnter::kMaxRawLen == 16, "seed: isr_enter is at most 16 bytes unframed");
static_assert(tband::enc::Valmarker::kMaxRawLen == 26, "seed: valmarker is at most 26 bytes unframed");
static_assert(tband::enc::TsResolutionNs::kMaxRawLen == 11, "seed: ts_resolution_ns is at most 11 bytes");
static_assert(tband::enc::IsrName::kMaxRawLen == 6 + tband::enc::kMaxStrLen, "seed: isr_name is 6 bytes + string");
static_assert(tband::enc::TaskEvtmarkerName::kMaxRawLen == 11 + tband::enc::kMaxStrLen, "seed: 11 bytes + string");
static_assert(tband::enc::IsrEnter::kIsMetadata == false && tband::enc::IsrName::kIsMetadata == true, "metadata flags");

}  // namespace
