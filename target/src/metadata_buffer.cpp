// The metadata buffer's storage, appends and the public accessors.
#include "tband.h"

#if tband_configENABLE == 1 && tband_configUSE_METADATA_BUF == 1

#include "backend.hpp"
#include "core_reports.hpp"
#include "metadata_buffer.hpp"

namespace tband::rt {

namespace {

// With the buffer's lock held.
void append_locked(unsigned core, MetadataBuffer& meta, const std::uint8_t* frame, std::size_t len) noexcept {
  const std::size_t used = meta.used;
  if (len <= tband_configMETADATA_BUF_SIZE - used) {
    meta.used = used + len;  // first: nothing stays live across the copy (readers take the lock)
    copy_bytes(metadata_storage(core) + used, frame, len);
  } else {
    ++meta.lost_evts;
    meta.lost_bytes += static_cast<std::uint32_t>(len);
    CoreReports& reports = per_core(g_core_reports, core);
    reports.overflow_pending = true;
    reports.force();
  }
}

// schema_id: the generator's frame, copied (no encoder, no stack); encoded
// here, out of line so that its frame on the stack is no hook's, only when
// kMaxStrLen cuts the user groups' names (the generator's frame has them uncut).
[[maybe_unused]] __attribute__((noinline)) void append_cut_schema_id(unsigned core, MetadataBuffer& meta) noexcept {
  std::uint8_t frame[enc::SchemaId::kMaxFramedLen];
  const std::size_t len = enc::encode_schema_id(frame, enc::kSchemaTraceId, enc::kUserGroupNames);
  append_locked(core, meta, frame, len);
}

[[maybe_unused]] void append_schema_id(unsigned core, MetadataBuffer& meta) noexcept {
  if constexpr (enc::kSchemaIdFrameExact) {
    append_locked(core, meta, enc::kSchemaIdFrame, enc::kSchemaIdFrameLen);
  } else {
    append_cut_schema_id(core, meta);
  }
}

}  // namespace

void metadata_append(unsigned core, const std::uint8_t* frame, std::size_t len) noexcept {
  MetadataBuffer& meta = per_core(g_metadata, core);
  LockGuard<Spinlock> guard(meta.lock);
  if constexpr (kNamesSchemaInMetadata) {
    // An untouched buffer (nothing kept, nothing lost) gets schema_id first:
    // no flag needed, and a buffer too small for it says so as a loss.
    if (meta.used == 0 && meta.lost_evts == 0) {
      append_schema_id(core, meta);
    }
  }
  append_locked(core, meta, frame, len);
  backend::metadata_changed(core, meta);
}

}  // namespace tband::rt

extern "C" const volatile std::uint8_t* tband_get_metadata_buf(unsigned int core_id) {
  if (core_id >= tband::rt::kCores) {
    return nullptr;
  }
  return tband::rt::metadata_storage(core_id);
}

extern "C" std::size_t tband_get_metadata_buf_amnt(unsigned int core_id) {
  if (core_id >= tband::rt::kCores) {
    return 0;
  }
  std::size_t used = 0;
  tband_portENTER_CRITICAL_FROM_ANY();
  used = tband::rt::metadata_view(core_id).used;
  tband_portEXIT_CRITICAL_FROM_ANY();
  return used;
}

#endif
