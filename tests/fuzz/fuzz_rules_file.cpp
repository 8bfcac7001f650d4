// Fuzz target for the rules files of `tband check` (host/report/rules_file).
// Invariants checked on every input (a violation traps):
//  - parsing never crashes, hangs on deep nesting or hits undefined behaviour
//    (ASan and UBSan): a rules file is read or refused with a RulesError;
//  - a refusal names the file, line and column ("fuzz.yaml:3:14: ..."), and
//    stays short however large the text at fault;
//  - every rule read has its place in the file and a figure and limit.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "input_file_checks.hpp"
#include "report/rules_file.hpp"

using tband::fuzz::require;
using tband::fuzz::starts_with_place;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text{reinterpret_cast<const char*>(data), size};
  try {
    const tband::RulesFile file = tband::parse_rules(text, "fuzz.yaml");
    for (const tband::Rule& rule : file.rules) {
      require(starts_with_place(rule.place, "fuzz.yaml"));
      require(!rule.figure.empty() && !rule.limit_text.empty());
    }
  } catch (const tband::RulesError& e) {
    const std::string_view message = e.what();
    require(starts_with_place(message, "fuzz.yaml"));
    require(message.size() < 1000);
  }
  return 0;
}
