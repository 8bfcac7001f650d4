#include "report/rules_file.hpp"

#include <yaml.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <map>
#include <span>

#include "common/text_place.hpp"

namespace tband {

namespace {

std::string place(const std::string& path, const yaml_mark_t& mark) {
  return path + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
}

// A rules file holds a few dozen rules three levels deep; the limits keep a
// hostile one cheap (libyaml's scanner is quadratic in the nesting depth).
constexpr std::size_t kMaxRulesBytes = std::size_t{1} << 20;
constexpr int kMaxDepth = 64;

/// A libyaml parser over `text`, freed with it; its errors thrown with their place.
class YamlParser {
 public:
  YamlParser(const std::string& text, const std::string& path) : text_(text), path_(path) {
    yaml_parser_initialize(&parser_);
    yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(text.data()), text.size());
  }
  ~YamlParser() { yaml_parser_delete(&parser_); }
  YamlParser(const YamlParser&) = delete;
  YamlParser& operator=(const YamlParser&) = delete;

  yaml_parser_t* get() { return &parser_; }

  [[noreturn]] void fail() const {
    // A reader error (bad UTF-8, a control character) comes with a byte offset, not a mark.
    const std::string where = parser_.error == YAML_READER_ERROR
                                  ? path_ + ":" + line_col(text_, parser_.problem_offset)
                                  : place(path_, parser_.problem_mark);
    std::string message = where + ": " + (parser_.problem != nullptr ? parser_.problem : "not valid YAML");
    if (parser_.error == YAML_READER_ERROR && parser_.problem_value >= 0) {
      char byte[32];
      std::snprintf(byte, sizeof byte, " (byte 0x%02X)", static_cast<unsigned>(parser_.problem_value));
      message += byte;
    }
    if (parser_.context != nullptr) {
      message += std::string{" ("} + parser_.context + ")";
    }
    throw RulesError(message);
  }

 private:
  yaml_parser_t parser_{};
  const std::string& text_;
  const std::string& path_;
};

/// Streams the text's events once, before any document is built: refuses a
/// second document (whose rules would go unchecked) and deep nesting.
void check_shape(const std::string& text, const std::string& path) {
  YamlParser parser{text, path};
  int depth = 0;
  int documents = 0;
  for (;;) {
    yaml_event_t event;
    if (yaml_parser_parse(parser.get(), &event) == 0) {
      parser.fail();
    }
    const yaml_event_type_t type = event.type;
    const yaml_mark_t mark = event.start_mark;
    yaml_event_delete(&event);
    if (type == YAML_STREAM_END_EVENT) {
      return;
    }
    if (type == YAML_DOCUMENT_START_EVENT && ++documents > 1) {
      throw RulesError(place(path, mark) +
                       ": a second YAML document: a rules file is one document (put all rules under one `rules:`)");
    }
    if (type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT) {
      if (++depth > kMaxDepth) {
        throw RulesError(place(path, mark) + ": nested deeper than " + std::to_string(kMaxDepth) +
                         " levels (a rules file is a mapping of lists of rules)");
      }
    } else if (type == YAML_SEQUENCE_END_EVENT || type == YAML_MAPPING_END_EVENT) {
      --depth;
    }
  }
}

/// A loaded YAML document, freed with it.
class Document {
 public:
  Document(const std::string& text, const std::string& path) {
    check_shape(text, path);
    YamlParser parser{text, path};
    if (yaml_parser_load(parser.get(), &doc_) == 0) {
      parser.fail();
    }
  }
  ~Document() { yaml_document_delete(&doc_); }
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;

  yaml_node_t* root() { return yaml_document_get_root_node(&doc_); }
  yaml_node_t* node(yaml_node_item_t item) { return yaml_document_get_node(&doc_, item); }
  std::span<yaml_node_t> nodes() {
    return {doc_.nodes.start, static_cast<std::size_t>(doc_.nodes.top - doc_.nodes.start)};
  }

 private:
  yaml_document_t doc_{};
};

std::string scalar(const yaml_node_t* n) {
  return {reinterpret_cast<const char*>(n->data.scalar.value), n->data.scalar.length};
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

class Parser {
 public:
  Parser(Document& doc, std::string path) : doc_(doc), path_(std::move(path)) {}

  RulesFile parse() {
    refuse_duplicate_keys();
    RulesFile file;
    file.path = path_;
    yaml_node_t* root = doc_.root();
    if (root == nullptr) {
      throw RulesError(path_ + ":1:1: the rules file is empty (it needs `rules:` and/or `allow:`)");
    }
    if (root->type != YAML_MAPPING_NODE) {
      fail(root, "expected a mapping with `rules:` and/or `allow:`");
    }
    bool any = false;
    for (yaml_node_pair_t* p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; ++p) {
      yaml_node_t* key = doc_.node(p->key);
      yaml_node_t* value = doc_.node(p->value);
      const std::string k = key->type == YAML_SCALAR_NODE ? scalar(key) : "";
      if (k == "rules") {
        read_rules(value, file);
      } else if (k == "allow") {
        read_allow(value, file);
      } else {
        fail(key, std::string{"unknown key '"} + clip(k) + "' (a rules file has `rules:` and `allow:`)");
      }
      any = true;
    }
    if (!any) {
      fail(root, "the rules file is empty (it needs `rules:` and/or `allow:`)");
    }
    return file;
  }

 private:
  [[noreturn]] void fail(const yaml_node_t* n, const std::string& message) const {
    throw RulesError(place(path_, n->start_mark) + ": " + message);
  }

  /// In any mapping: libyaml keeps both, and a reader would take one silently.
  void refuse_duplicate_keys() {
    for (const yaml_node_t& map : doc_.nodes()) {
      if (map.type != YAML_MAPPING_NODE) {
        continue;
      }
      std::map<std::string, const yaml_node_t*> seen;
      for (yaml_node_pair_t* p = map.data.mapping.pairs.start; p < map.data.mapping.pairs.top; ++p) {
        const yaml_node_t* key = doc_.node(p->key);
        if (key->type != YAML_SCALAR_NODE) {
          continue;
        }
        const auto [first, added] = seen.emplace(scalar(key), key);
        if (!added) {
          fail(key, std::string{"duplicate key '"} + clip(first->first) + "' (first at line " +
                        std::to_string(first->second->start_mark.line + 1) + "); each key may appear once");
        }
      }
    }
  }

  void read_allow(yaml_node_t* list, RulesFile& file) {
    if (list->type != YAML_SEQUENCE_NODE) {
      fail(list, "`allow:` takes a list of diagnostic kinds, e.g. [truncated_end]");
    }
    for (yaml_node_item_t* i = list->data.sequence.items.start; i < list->data.sequence.items.top; ++i) {
      yaml_node_t* item = doc_.node(*i);
      const std::string id = item->type == YAML_SCALAR_NODE ? scalar(item) : "";
      const auto kind = parse_diagnostic_id(id);
      if (!kind) {
        fail(item, std::string{"unknown diagnostic kind '"} + clip(id) + "'; the kinds are: " + diagnostic_id_list());
      }
      file.allowed.allow(*kind);
      file.allowed_ids.push_back(id);
    }
  }

  void read_rules(yaml_node_t* list, RulesFile& file) {
    if (list->type != YAML_SEQUENCE_NODE) {
      fail(list, "`rules:` takes a list of rules, e.g. - isr.tick.duration.max < 20us");
    }
    for (yaml_node_item_t* i = list->data.sequence.items.start; i < list->data.sequence.items.top; ++i) {
      yaml_node_t* item = doc_.node(*i);
      if (item->type == YAML_SCALAR_NODE) {
        file.rules.push_back(parse_rule(item, scalar(item), ""));
      } else if (item->type == YAML_MAPPING_NODE) {
        file.rules.push_back(read_named_rule(item));
      } else {
        fail(item, "a rule is a line like `isr.tick.duration.max < 20us`, or `rule:` with `name:`");
      }
    }
  }

  Rule read_named_rule(yaml_node_t* map) {
    yaml_node_t* rule_node = nullptr;
    std::string name;
    for (yaml_node_pair_t* p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; ++p) {
      yaml_node_t* key = doc_.node(p->key);
      yaml_node_t* value = doc_.node(p->value);
      const std::string k = key->type == YAML_SCALAR_NODE ? scalar(key) : "";
      if (value->type != YAML_SCALAR_NODE) {
        fail(value, "`" + k + ":` takes text");
      }
      if (k == "rule") {
        rule_node = value;
      } else if (k == "name") {
        name = scalar(value);
      } else {
        fail(key, std::string{"unknown key '"} + clip(k) + "' in a rule (it has `rule:` and `name:`)");
      }
    }
    if (rule_node == nullptr) {
      fail(map, "this rule has no `rule:`");
    }
    return parse_rule(rule_node, scalar(rule_node), name);
  }

  Rule parse_rule(const yaml_node_t* node, const std::string& text, const std::string& name) const {
    static constexpr std::pair<std::string_view, Comparison> kOps[] = {
        {"<=", Comparison::kLessEqual}, {">=", Comparison::kGreaterEqual}, {"==", Comparison::kEqual},
        {"!=", Comparison::kNotEqual},  {"<", Comparison::kLess},           {">", Comparison::kGreater}};
    const std::string shown = clip(text);  // as messages quote it
    const std::size_t at = text.find_first_of("<>=!");
    if (at == std::string::npos) {
      fail(node, "'" + shown + "' has no comparison: write <figure> <op> <limit> with one of < <= > >= == !=");
    }
    Rule rule;
    rule.text = text;
    rule.name = name.empty() ? text : name;
    rule.place = place(path_, node->start_mark);
    // The operator is the whole run of operator characters: "<==" is not "<=" then "= 1".
    const std::size_t run_end = std::min(text.find_first_not_of("<>=!", at), text.size());
    const std::string_view op_written = std::string_view{text}.substr(at, run_end - at);
    bool found = false;
    for (const auto& [op_text, op] : kOps) {
      if (op_written == op_text) {
        rule.op = op;
        found = true;
        break;
      }
    }
    if (!found) {
      fail(node, "'" + shown + "': unknown operator '" + clip(op_written) + "' (use < <= > >= == !=)");
    }
    const std::string_view rest = std::string_view{text}.substr(run_end);
    rule.figure = std::string{trim(std::string_view{text}.substr(0, at))};
    if (rule.figure.empty()) {
      fail(node, "'" + shown + "' names no figure before its operator");
    }
    rule.limit_text = std::string{trim(rest)};
    if (rule.limit_text.empty()) {
      fail(node, "'" + shown + "' has no limit after its operator");
    }
    std::string error;
    const auto limit = parse_quantity(rule.limit_text, error);
    if (!limit) {
      fail(node, error);
    }
    rule.limit = *limit;
    return rule;
  }

  Document& doc_;
  std::string path_;
};

}  // namespace

std::string_view to_string(Comparison op) noexcept {
  switch (op) {
    case Comparison::kLess: return "<";
    case Comparison::kLessEqual: return "<=";
    case Comparison::kGreater: return ">";
    case Comparison::kGreaterEqual: return ">=";
    case Comparison::kEqual: return "==";
    case Comparison::kNotEqual: return "!=";
  }
  return "?";
}

bool holds(double measured, Comparison op, double limit) noexcept {
  switch (op) {
    case Comparison::kLess: return measured < limit;
    case Comparison::kLessEqual: return measured <= limit;
    case Comparison::kGreater: return measured > limit;
    case Comparison::kGreaterEqual: return measured >= limit;
    case Comparison::kEqual: return measured == limit;
    case Comparison::kNotEqual: return measured != limit;
  }
  return false;
}

RulesFile parse_rules(const std::string& text, const std::string& path) {
  if (text.size() > kMaxRulesBytes) {
    throw RulesError(path + ": the rules file is larger than 1 MiB (" + std::to_string(text.size()) +
                     " bytes); a rules file lists limits, a few lines each");
  }
  Document doc{text, path};
  return Parser{doc, path}.parse();
}

RulesFile load_rules_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw std::runtime_error(path + ": cannot read the rules file");
  }
  // One byte past the limit is enough to refuse a file too large.
  std::string text(kMaxRulesBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return parse_rules(text, path);
}

}  // namespace tband
