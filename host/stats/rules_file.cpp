#include "stats/rules_file.hpp"

#include <yaml.h>

#include <fstream>
#include <memory>
#include <sstream>

namespace tband {

namespace {

std::string place(const std::string& path, const yaml_mark_t& mark) {
  return path + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
}

/// A loaded YAML document, freed with it.
class Document {
 public:
  Document(const std::string& text, const std::string& path) {
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(text.data()), text.size());
    const bool ok = yaml_parser_load(&parser, &doc_) != 0;
    if (!ok) {
      std::string message = place(path, parser.problem_mark) + ": " +
                            (parser.problem != nullptr ? parser.problem : "not valid YAML");
      if (parser.context != nullptr) {
        message += std::string{" ("} + parser.context + ")";
      }
      yaml_parser_delete(&parser);
      throw RulesError(message);
    }
    yaml_parser_delete(&parser);
  }
  ~Document() { yaml_document_delete(&doc_); }
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;

  yaml_node_t* root() { return yaml_document_get_root_node(&doc_); }
  yaml_node_t* node(yaml_node_item_t item) { return yaml_document_get_node(&doc_, item); }

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
        fail(key, "unknown key '" + k + "' (a rules file has `rules:` and `allow:`)");
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

  void read_allow(yaml_node_t* list, RulesFile& file) {
    if (list->type != YAML_SEQUENCE_NODE) {
      fail(list, "`allow:` takes a list of diagnostic kinds, e.g. [truncated_end]");
    }
    for (yaml_node_item_t* i = list->data.sequence.items.start; i < list->data.sequence.items.top; ++i) {
      yaml_node_t* item = doc_.node(*i);
      const std::string id = item->type == YAML_SCALAR_NODE ? scalar(item) : "";
      const auto kind = parse_diagnostic_id(id);
      if (!kind) {
        fail(item, "unknown diagnostic kind '" + id + "'; the kinds are: " + diagnostic_id_list());
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
        fail(key, "unknown key '" + k + "' in a rule (it has `rule:` and `name:`)");
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
    const std::size_t at = text.find_first_of("<>=!");
    if (at == std::string::npos) {
      fail(node, "'" + text + "' has no comparison: write <figure> <op> <limit> with one of < <= > >= == !=");
    }
    Rule rule;
    rule.text = text;
    rule.name = name.empty() ? text : name;
    rule.place = place(path_, node->start_mark);
    bool found = false;
    std::string_view rest;
    for (const auto& [op_text, op] : kOps) {
      if (std::string_view{text}.substr(at, op_text.size()) == op_text) {
        rule.op = op;
        rest = std::string_view{text}.substr(at + op_text.size());
        found = true;
        break;
      }
    }
    if (!found) {
      fail(node, "'" + text + "': unknown operator (use < <= > >= == !=)");
    }
    rule.figure = std::string{trim(std::string_view{text}.substr(0, at))};
    if (rule.figure.empty()) {
      fail(node, "'" + text + "' names no figure before its operator");
    }
    rule.limit_text = std::string{trim(rest)};
    if (rule.limit_text.empty()) {
      fail(node, "'" + text + "' has no limit after its operator");
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
  Document doc{text, path};
  return Parser{doc, path}.parse();
}

RulesFile load_rules_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw std::runtime_error(path + ": cannot read the rules file");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_rules(text.str(), path);
}

}  // namespace tband
