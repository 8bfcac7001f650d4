// Trace strings are bytes: firmware may send any (a name cut by
// tband_configMAX_STR_LEN in the middle of a multibyte character, garbage).
// Outputs that must be UTF-8 (JSON, Perfetto's string fields) show such a
// string escaped, and `dump --json` adds its exact bytes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tband {

/// True if the bytes are well-formed UTF-8 (no overlong forms, surrogates or
/// code points above U+10FFFF).
[[nodiscard]] bool is_valid_utf8(std::string_view bytes) noexcept;

/// The string as valid UTF-8 text that still says what every byte was: its
/// well-formed characters as they are, each byte outside one as `\xHH`, and
/// each backslash doubled (so `\x` in the original stays distinguishable).
/// Only for strings that are not valid UTF-8: valid ones are shown unchanged.
[[nodiscard]] std::string escape_invalid_utf8(std::string_view bytes);

/// The bytes as lowercase hex, two digits each ("61ff").
[[nodiscard]] std::string hex_bytes(std::string_view bytes);

}  // namespace tband
