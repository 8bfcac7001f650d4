// Strings that are not UTF-8: recognised exactly (RFC 3629), escaped so
// that every byte can still be told, and written out as hex.
#include <gtest/gtest.h>

#include <string>

#include "decode/utf8_text.hpp"

namespace tband {
namespace {

using namespace std::string_literals;

TEST(Utf8Text, ValidUtf8IsRecognised) {
  for (const std::string& s : {""s, "plain"s, "gr\xC3\xBCn"s, "\xE2\x82\xAC"s, "\xF0\x9F\x98\x80"s, "\xF4\x8F\xBF\xBF"s,
                              "nul\0inside"s}) {
    EXPECT_TRUE(is_valid_utf8(s)) << s;
  }
  for (const std::string& s : {"\xFF"s, "gr\xC3"s /* cut */, "\xC0\xAF"s /* overlong */, "\xE0\x80\xAF"s,
                              "\xED\xA0\x80"s /* surrogate */, "\xF4\x90\x80\x80"s /* above U+10FFFF */,
                              "\x80"s /* lone continuation */, "\xE2\x82"s, "\xF5\x80\x80\x80"s}) {
    EXPECT_FALSE(is_valid_utf8(s)) << s;
  }
}

TEST(Utf8Text, EscapesOnlyTheStrayBytesAndDoublesBackslashes) {
  EXPECT_EQ(escape_invalid_utf8("ab\xFF"), "ab\\xFF");
  EXPECT_EQ(escape_invalid_utf8("gr\xC3\xBC\xC3"), "gr\xC3\xBC\\xC3");  // the whole ü kept, the cut one escaped
  EXPECT_EQ(escape_invalid_utf8("\\x41\xFE"), "\\\\x41\\xFE");           // a literal \x stays distinguishable
  EXPECT_EQ(escape_invalid_utf8("\xED\xA0\x80"), "\\xED\\xA0\\x80");
  EXPECT_TRUE(is_valid_utf8(escape_invalid_utf8("\xC0\xF8\x80\xFF")));
}

TEST(Utf8Text, HexBytes) {
  EXPECT_EQ(hex_bytes("ab\xFF"), "6162ff");
  EXPECT_EQ(hex_bytes(""), "");
  EXPECT_EQ(hex_bytes("\0\x10"s), "0010");
}

}  // namespace
}  // namespace tband
