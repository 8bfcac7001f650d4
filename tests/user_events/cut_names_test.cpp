// schema_id when tband_configMAX_STR_LEN (2 here) is shorter than the user
// groups' names ("lab"): the generator's ready-made frame holds the names
// uncut, so the runtime encodes the cut frame itself (append_cut_schema_id
// in target/src/metadata_buffer.cpp). The metadata buffer must start with
// that frame, byte for byte the encoder's, which decodes with the names cut
// as every other string the target sends.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "tband_user_events.h"  // first: it brings the configuration the port header reads

#include "tband_encode.hpp"
#include "tband_events.hpp"
#include "trace_capture.hpp"

namespace {

namespace enc = tband::enc;

static_assert(!enc::kSchemaIdFrameExact, "this test's configuration must cut the user groups' names");

std::vector<std::uint8_t> metadata_bytes() {
  const volatile std::uint8_t* buf = tband_get_metadata_buf(0);
  std::vector<std::uint8_t> bytes(tband_get_metadata_buf_amnt(0));
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] = buf[i];
  }
  return bytes;
}

TEST(CutSchemaId, TheMetadataBufferStartsWithTheCutFrame) {
  tband_lab_channel_name(7, "left");  // the first metadata event puts schema_id before it

  std::uint8_t frame[enc::SchemaId::kMaxFramedLen];
  const std::size_t len = enc::encode_schema_id(frame, enc::kSchemaTraceId, enc::kUserGroupNames);
  const std::vector<std::uint8_t> bytes = metadata_bytes();
  ASSERT_GE(bytes.size(), len);
  EXPECT_EQ(std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(len)),
            std::vector<std::uint8_t>(frame, frame + len));

  char trace_id[32];
  std::snprintf(trace_id, sizeof trace_id, "%llu", static_cast<unsigned long long>(enc::kSchemaTraceId));
  const auto metadata = tband::test::decode_stream(tband_get_metadata_buf(0), tband_get_metadata_buf_amnt(0));
  EXPECT_EQ(tband::test::texts(metadata), (std::vector<std::string>{
                                              std::string{"schema_id wire_hash="} + trace_id + " user_groups=\"la\"",
                                              "lab_channel_name channel=7 name=\"le\"",
                                          }));
}

}  // namespace
