// Force-included into every file of the WebAssembly build (host/web/CMakeLists.txt).
// Debian's emscripten 3.1.6 ships a libc++ from before LLVM 14 that lacks two
// C++20/17 pieces the host code uses: std::bit_cast, make_unique_for_overwrite
// (arrays), and std::to_chars for float and double (shortest round trip). Both are given here with the
// standard's meaning, so the converter's output is the native build's byte for
// byte (tests/web checks it); with a newer libc++ this header does nothing.
#pragma once

#include <version>

#if defined(__EMSCRIPTEN__) && defined(_LIBCPP_VERSION) && _LIBCPP_VERSION < 14000
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <system_error>
#include <type_traits>

namespace std {

template <class To, class From>
  requires(sizeof(To) == sizeof(From) && is_trivially_copyable_v<To> && is_trivially_copyable_v<From>)
constexpr To bit_cast(const From& from) noexcept {
  return __builtin_bit_cast(To, from);
}

template <class T>
  requires is_unbounded_array_v<T>
unique_ptr<T> make_unique_for_overwrite(size_t n) {
  return unique_ptr<T>(new remove_extent_t<T>[n]);
}

namespace tband_compat {

// The shortest decimal digits that read back as `value` (the closest such
// when several have that length), as printf's %e gives them, then written
// fixed or scientific, whichever is shorter (fixed on a tie): to_chars's rule.
template <class T>
to_chars_result shortest(char* first, char* last, T value) {
  std::string out;
  if (std::signbit(value)) {
    out += '-';
  }
  if (std::isnan(value)) {
    out += "nan";
  } else if (std::isinf(value)) {
    out += "inf";
  } else if (value == 0) {
    out += '0';
  } else {
    const double v = std::fabs(static_cast<double>(value));
    constexpr int kMaxDigits = is_same_v<T, float> ? 9 : 17;
    char buf[64];
    for (int p = 1; p <= kMaxDigits; ++p) {
      std::snprintf(buf, sizeof buf, "%.*e", p - 1, v);
      const bool back = is_same_v<T, float> ? std::strtof(buf, nullptr) == static_cast<float>(v)
                                            : std::strtod(buf, nullptr) == v;
      if (back) {
        break;
      }
    }
    // buf: d[.ddd]e±XX
    const char* e = std::strchr(buf, 'e');
    std::string digits;
    for (const char* c = buf; c != e; ++c) {
      if (*c != '.') {
        digits += *c;
      }
    }
    const int exp = std::atoi(e + 1);
    const int n = static_cast<int>(digits.size());
    std::string sci = digits.substr(0, 1);
    if (n > 1) {
      sci += '.' + digits.substr(1);
    }
    char ebuf[8];
    std::snprintf(ebuf, sizeof ebuf, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    sci += ebuf;
    std::string fixed;
    if (exp >= 0) {
      if (n <= exp + 1) {
        fixed = digits + std::string(static_cast<size_t>(exp + 1 - n), '0');
      } else {
        fixed = digits.substr(0, static_cast<size_t>(exp + 1)) + '.' + digits.substr(static_cast<size_t>(exp + 1));
      }
    } else {
      fixed = "0." + std::string(static_cast<size_t>(-exp - 1), '0') + digits;
    }
    out += fixed.size() <= sci.size() ? fixed : sci;
  }
  if (last - first < static_cast<ptrdiff_t>(out.size())) {
    return {last, errc::value_too_large};
  }
  std::memcpy(first, out.data(), out.size());
  return {first + out.size(), errc{}};
}

}  // namespace tband_compat

// from_chars for double (chars_format::general): no leading blank or '+', no hex.
inline from_chars_result from_chars(const char* first, const char* last, double& value) {
  const char* p = first;
  if (p != last && *p == '-') {
    ++p;
  }
  if (p == last || !(isdigit(static_cast<unsigned char>(*p)) || *p == '.' || *p == 'i' || *p == 'I' || *p == 'n' ||
                     *p == 'N')) {
    return {first, errc::invalid_argument};
  }
  std::string text{first, last};
  if (p + 1 < last && *p == '0' && (p[1] == 'x' || p[1] == 'X')) {
    text.resize(static_cast<size_t>(p + 1 - first));  // "0x..." reads as 0, as from_chars does
  }
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str()) {
    return {first, errc::invalid_argument};
  }
  const char* stop = first + (end - text.c_str());
  if (std::isinf(v) && !(*p == 'i' || *p == 'I')) {
    return {stop, errc::result_out_of_range};
  }
  value = v;
  return {stop, errc{}};
}

inline to_chars_result to_chars(char* first, char* last, float value) {
  return tband_compat::shortest(first, last, value);
}
inline to_chars_result to_chars(char* first, char* last, double value) {
  return tband_compat::shortest(first, last, value);
}

}  // namespace std
#endif
