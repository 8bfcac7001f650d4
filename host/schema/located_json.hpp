// JSON read with the place of every value kept, for messages about user
// files: descriptors are written by people and tools alike, so an error names
// the line and column of the value at fault. Duplicate keys and nesting past a
// small depth are refused while parsing (a deep document would otherwise cost
// stack in every recursive walk nlohmann makes over it, e.g. dump()).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "common/text_place.hpp"

namespace tband {

/// A JSON text that cannot be used: what is wrong and the byte where.
class JsonInputError : public std::runtime_error {
 public:
  JsonInputError(std::size_t offset, const std::string& what) : std::runtime_error(what), offset_(offset) {}
  [[nodiscard]] std::size_t offset() const noexcept { return offset_; }

 private:
  std::size_t offset_;
};

class LocatedJson {
 public:
  /// Parses `text` (which must outlive this); throws JsonInputError.
  LocatedJson(std::string_view text, std::size_t max_depth);
  // The offsets are keyed by the values' addresses: the document stays put.
  LocatedJson(const LocatedJson&) = delete;
  LocatedJson& operator=(const LocatedJson&) = delete;

  [[nodiscard]] const nlohmann::json& root() const noexcept { return root_; }
  /// "line:col" (1-based, columns in bytes) where this value of the document
  /// starts; the document's start for a value not from it.
  [[nodiscard]] std::string place(const nlohmann::json& value) const;

 private:
  friend class LocatedJsonBuilder;
  std::string_view text_;
  nlohmann::json root_;
  std::unordered_map<const nlohmann::json*, std::size_t> offsets_;
};

}  // namespace tband
