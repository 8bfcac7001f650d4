#include "schema/located_json.hpp"

#include <iterator>
#include <utility>
#include <vector>

namespace tband {

using nlohmann::json;

namespace {

/// A pointer into the text that tells how far nlohmann's lexer has read:
/// nlohmann 3.11's SAX interface gives no positions, but it reads through
/// the iterators it is given one byte at a time.
class TrackingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  TrackingIterator(const char* at, const char** reached) : at_(at), reached_(reached) {}
  reference operator*() const { return *at_; }
  TrackingIterator& operator++() {
    *reached_ = ++at_;
    return *this;
  }
  TrackingIterator operator++(int) {
    TrackingIterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const TrackingIterator& other) const { return at_ == other.at_; }

 private:
  const char* at_;
  const char** reached_;
};

bool is_separator(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ':' || c == ','; }

}  // namespace

/// nlohmann's SAX events turned into the document, with each value's offset.
class LocatedJsonBuilder {
 public:
  LocatedJsonBuilder(LocatedJson& out, const char* const& reached, std::size_t max_depth)
      : out_(out), reached_(reached), max_depth_(max_depth) {
    if (out.text_.starts_with("\xEF\xBB\xBF")) {
      last_end_ = 3;  // the lexer skips a byte-order mark
    }
  }

  bool null() { return put(json(nullptr)); }
  bool boolean(bool value) { return put(json(value)); }
  bool number_integer(json::number_integer_t value) { return put(json(value)); }
  bool number_unsigned(json::number_unsigned_t value) { return put(json(value)); }
  bool number_float(json::number_float_t value, const json::string_t& /*as written*/) { return put(json(value)); }
  bool string(json::string_t& value) { return put(json(std::move(value))); }
  bool binary(json::binary_t& value) { return put(json(std::move(value))); }
  bool start_object(std::size_t /*unknown*/) { return open(json::object()); }
  bool start_array(std::size_t /*unknown*/) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() {
    // The elements' addresses are final only now that the array stops growing.
    Frame& frame = open_.back();
    for (const auto& [index, offset] : frame.element_offsets) {
      out_.offsets_[&(*frame.value)[index]] = offset;
    }
    return close();
  }
  bool key(json::string_t& name) {
    const std::size_t at = token_start();
    if (open_.back().value->contains(name)) {
      throw JsonInputError(at, std::string{"duplicate key \""} + clip(name) + "\" (each key may appear once in an object)");
    }
    key_ = std::move(name);
    mark();
    return true;
  }
  template <typename Exception>
  bool parse_error(std::size_t position, const std::string& /*token*/, const Exception& /*error*/) {
    throw JsonInputError(position > 0 ? position - 1 : 0, "not valid JSON");
  }

 private:
  struct Frame {
    json* value;
    std::vector<std::pair<std::size_t, std::size_t>> element_offsets;  // array: index, offset
  };

  void mark() { last_end_ = static_cast<std::size_t>(reached_ - out_.text_.data()); }
  /// Where the value (or key) just read starts: the lexer has read it whole,
  /// and between the last one and it there are only blanks, ':' and ','.
  [[nodiscard]] std::size_t token_start() const {
    std::size_t at = last_end_;
    while (at < out_.text_.size() && is_separator(out_.text_[at])) {
      ++at;
    }
    return at;
  }

  json* place(json value, std::size_t at) {
    if (open_.empty()) {
      out_.root_ = std::move(value);
      out_.offsets_[&out_.root_] = at;
      return &out_.root_;
    }
    Frame& parent = open_.back();
    if (parent.value->is_object()) {
      json& slot = (*parent.value)[key_];  // a map node: its address holds
      slot = std::move(value);
      out_.offsets_[&slot] = at;
      return &slot;
    }
    parent.value->push_back(std::move(value));
    parent.element_offsets.emplace_back(parent.value->size() - 1, at);
    return &parent.value->back();  // stays put while it is open: the array grows only after it closes
  }

  bool put(json value) {
    place(std::move(value), token_start());
    mark();
    return true;
  }
  bool open(json container) {
    const std::size_t at = token_start();
    if (open_.size() >= max_depth_) {
      throw JsonInputError(at, "nested deeper than " + std::to_string(max_depth_) + " levels");
    }
    open_.push_back({place(std::move(container), at), {}});
    mark();
    return true;
  }
  bool close() {
    open_.pop_back();
    mark();
    return true;
  }

  LocatedJson& out_;
  const char* const& reached_;
  std::size_t max_depth_;
  std::size_t last_end_ = 0;
  std::vector<Frame> open_;
  json::string_t key_;
};

LocatedJson::LocatedJson(std::string_view text, std::size_t max_depth) : text_(text) {
  const char* reached = text.data();
  LocatedJsonBuilder builder{*this, reached, max_depth};
  const TrackingIterator first{text.data(), &reached};
  const TrackingIterator last{text.data() + text.size(), &reached};
  json::sax_parse(first, last, &builder);
}

std::string LocatedJson::place(const json& value) const {
  const auto it = offsets_.find(&value);
  return line_col(text_, it == offsets_.end() ? 0 : it->second);
}

}  // namespace tband
