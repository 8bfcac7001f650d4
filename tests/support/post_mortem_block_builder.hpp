// Builds post-mortem blocks byte by byte, laid out as the firmware lays them
// out (target/include/tband/post_mortem_layout.h), in either byte order, for
// tests of everything that reads dumps.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "postmortem/dump_reader.hpp"
#include "tband/post_mortem_layout.h"

namespace tband::test {

using tband::postmortem::ByteOrder;

/// A post-mortem block laid out as the firmware lays it out.
class BlockBuilder {
 public:
  BlockBuilder(std::uint32_t cores, std::uint32_t ring_size, std::uint32_t metadata_size,
               ByteOrder order = ByteOrder::kLittleEndian)
      : cores_(cores), ring_size_(ring_size), metadata_size_(metadata_size), order_(order) {
    header_size_ = TBAND_PM_HEADER_SIZE + cores * TBAND_PM_CORE_DESC_SIZE;
    bytes_.assign(header_size_ + cores * (metadata_size + ring_size), 0xEE);
    put(TBAND_PM_OFF_MAGIC, TBAND_PM_MAGIC);
    put(TBAND_PM_OFF_VERSION, TBAND_PM_VERSION);
    put(TBAND_PM_OFF_HEADER_SIZE, header_size_);
    put(TBAND_PM_OFF_CORE_COUNT, cores);
    put(TBAND_PM_OFF_RING_SIZE, ring_size);
    put(TBAND_PM_OFF_METADATA_SIZE, metadata_size);
    put(TBAND_PM_OFF_BLOCK_SIZE, static_cast<std::uint32_t>(bytes_.size()));
    put(28, 0);
    for (std::uint32_t core = 0; core < cores; ++core) {
      put_core(core, TBAND_PM_CORE_OFF_METADATA, metadata_offset(core));
      put_core(core, TBAND_PM_CORE_OFF_RING, ring_offset(core));
      put_core(core, TBAND_PM_CORE_OFF_METADATA_LEN, 0);
      put_core(core, TBAND_PM_CORE_OFF_HEAD, 0);
      put_core(core, TBAND_PM_CORE_OFF_TAIL, TBAND_PM_TAIL_AT_FRAME);
      put_core(core, TBAND_PM_CORE_OFF_META_LOST_EVTS, 0);
      put_core(core, TBAND_PM_CORE_OFF_META_LOST_BYTES, 0);
      put_core(core, 28, 0);
    }
  }

  /// Ring bytes from position 0, the write position and the tail word.
  BlockBuilder& ring(std::uint32_t core, const std::vector<std::uint8_t>& data, std::uint32_t head,
                     std::uint32_t tail_word) {
    std::copy(data.begin(), data.end(), bytes_.begin() + ring_offset(core));
    put_core(core, TBAND_PM_CORE_OFF_HEAD, head);
    put_core(core, TBAND_PM_CORE_OFF_TAIL, tail_word);
    return *this;
  }
  BlockBuilder& metadata(std::uint32_t core, const std::vector<std::uint8_t>& data) {
    std::copy(data.begin(), data.end(), bytes_.begin() + metadata_offset(core));
    put_core(core, TBAND_PM_CORE_OFF_METADATA_LEN, static_cast<std::uint32_t>(data.size()));
    return *this;
  }
  void put(std::size_t offset, std::uint32_t value) {
    for (int i = 0; i < 4; ++i) {
      const int shift = order_ == ByteOrder::kLittleEndian ? 8 * i : 8 * (3 - i);
      bytes_[offset + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(value >> shift);
    }
  }
  void put_core(std::uint32_t core, std::size_t field, std::uint32_t value) {
    put(TBAND_PM_HEADER_SIZE + core * TBAND_PM_CORE_DESC_SIZE + field, value);
  }
  const std::vector<std::uint8_t>& bytes() const { return bytes_; }

 private:
  std::uint32_t metadata_offset(std::uint32_t core) const {
    return header_size_ + core * (metadata_size_ + ring_size_);
  }
  std::uint32_t ring_offset(std::uint32_t core) const { return metadata_offset(core) + metadata_size_; }

  std::uint32_t cores_, ring_size_, metadata_size_, header_size_;
  ByteOrder order_;
  std::vector<std::uint8_t> bytes_;
};

}  // namespace tband::test
