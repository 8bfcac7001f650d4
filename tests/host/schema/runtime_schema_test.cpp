// Schemas loaded at run time: the descriptor the generator writes for tband's
// own schema describes exactly the compiled events; the run-time decoder
// gives the same values and the same errors as the generated one on every
// built-in event and on the fuzz corpus; bad descriptors are rejected with a
// message that names the place; schema identity picks descriptors.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>

#include "both_ways.hpp"
#include "trace_builder.hpp"
#include "schema/schema_files.hpp"
#include "schema/schema_set.hpp"

namespace tband::test {
namespace {

const RuntimeSchema& own_schema() {
  static const auto schema = read_descriptor_file(TBAND_OWN_DESCRIPTOR);
  return *schema;
}

TEST(RuntimeSchema, TheOwnDescriptorDescribesEveryCompiledEvent) {
  const RuntimeSchema& schema = own_schema();
  EXPECT_EQ(schema.trace_id(), kSchemaTraceId);
  EXPECT_TRUE(schema.user_groups().empty());
  ASSERT_EQ(schema.events().size(), all_event_infos().size());
  for (const EventInfo& compiled : all_event_infos()) {
    const RuntimeEvent* loaded = schema.find(compiled.id);
    ASSERT_NE(loaded, nullptr) << compiled.name;
    EXPECT_TRUE(same_wire_layout(compiled, loaded->info)) << compiled.name;
    EXPECT_EQ(loaded->info.group, compiled.group);
    EXPECT_EQ(loaded->info.description, compiled.description);
    EXPECT_FALSE(loaded->has_display);
    for (std::size_t i = 0; i < compiled.fields.size(); ++i) {
      EXPECT_EQ(loaded->info.fields[i].implicit, compiled.fields[i].implicit);
      EXPECT_EQ(loaded->info.fields[i].description, compiled.fields[i].description);
    }
  }
}

TEST(RuntimeSchema, DecodesEveryBuiltInEventLikeTheGeneratedDecoder) {
  EXPECT_GT(check_every_event_both_ways(own_schema(), 60), 10000u);
}

TEST(RuntimeSchema, DecodesTheFuzzCorpusLikeTheGeneratedDecoder) {
  EXPECT_GT(check_files_both_ways(own_schema(), TBAND_FUZZ_CORPUS), 1000u);
}

// ---- bad descriptors -----------------------------------------------------------

std::string load_error(const std::string& json) {
  try {
    (void)RuntimeSchema::from_descriptor(json, "d.json");
  } catch (const SchemaLoadError& e) {
    return e.what();
  }
  return "(loaded)";
}

std::string descriptor(const std::string& events, const std::string& enums = "[]") {
  return R"({"format": "tband-schema-descriptor", "version": 1, "trace_id": "00000000000000ab",
             "user_groups": ["app"], "enums": )" + enums + R"(, "events": )" + events + "}";
}

const std::string kTs = R"({"name": "ts", "type": "u64", "implicit": true})";

TEST(RuntimeSchema, BadDescriptorsAreRejectedWithThePlace) {
  // file:line:col of the value at fault (or of the object that lacks it).
  EXPECT_EQ(load_error("{\n  \"format\": 1,\n  nope\n}"), "d.json:3:4: not valid JSON (is it a tband schema descriptor?)");
  EXPECT_EQ(load_error(R"({"format": "other"})"),
            "d.json:1:12: not a tband schema descriptor (no \"format\": \"tband-schema-descriptor\"); the generator writes "
            "one as descriptor/tband_schema.json");
  EXPECT_EQ(load_error(R"({"format": "tband-schema-descriptor", "version": 2})"),
            "d.json:1:50: descriptor version 2 is not the one this tband reads (1); regenerate it with this tband's "
            "tband-codegen");
  EXPECT_EQ(load_error(descriptor(R"([{"name": "a", "id": 192, "fields": [)" + kTs +
                                  R"(, {"name": "x", "type": "u24"}]}])")),
            "d.json:2:169: event 'a' (0xC0) field 'x': unknown type 'u24'");
  EXPECT_EQ(load_error(descriptor(R"([{"name": "a", "id": 300, "fields": []}])")), "d.json:2:82: event 'a': id must be 0..255");
  EXPECT_EQ(load_error(descriptor(R"([{"name": "a", "id": 192, "fields": []}])")),
            "d.json:2:97: event 'a' (0xC0): an event that is not metadata starts with the implicit timestamp field");
  EXPECT_EQ(load_error(descriptor(R"([{"name": "a", "id": 192, "metadata": true, "fields": [
                                        {"name": "s", "type": "str"}, {"name": "x", "type": "u8"}]}])")),
            "d.json:3:41: event 'a' (0xC0) field 's': a str field must be the last field");
  EXPECT_EQ(load_error(descriptor(R"([{"name": "a", "id": 192, "fields": [)" + kTs + R"(],
                                        "display": {"kind": "counter", "value": "v"}}])")),
            "d.json:3:81: event 'a' (0xC0) display: value: \"v\" is not a field of the event");
  EXPECT_EQ(load_error(descriptor(R"([{"name": "a", "id": 192, "fields": [)" + kTs + R"(,
                                        {"name": "m", "type": "u8"}], "display": {"track": "m {m"}}])")),
            "d.json:3:92: event 'a' (0xC0) display: track \"m {m\": '{' at column 3 is never closed");
  EXPECT_EQ(load_error(descriptor(R"([{"name": "a", "id": 192, "fields": [)" + kTs + R"(],
                                        "display": {"kind": "span_begin", "span": "job"}}])")),
            "d.json:3:52: span 'job' has no span_end event");
  EXPECT_EQ(load_error(descriptor(R"([{"name": "a", "id": 192, "fields": [)" + kTs + R"(,
                                        {"name": "m", "type": "Mode", "optional": true, "default": "FAST"}]}])",
                                  R"([{"name": "Mode", "values": [{"name": "SLOW", "value": 0}]}])")),
            "d.json:3:100: event 'a' (0xC0) field 'm': default \"FAST\" is not a value of enum 'Mode'");
}

TEST(RuntimeSchema, IntegerDefaultsMustFitTheirType) {
  const auto with_default = [](const std::string& type, const std::string& value) {
    return load_error(descriptor(R"([{"name": "a", "id": 192, "fields": [)" + kTs + R"(,
                                        {"name": "v", "type": ")" + type + R"(", "optional": true, "default": )" + value +
                                 "}]}]"));
  };
  // One past each end is refused, at the value, with the range; the ends themselves load.
  EXPECT_EQ(with_default("s64", "9223372036854775808"),
            "d.json:3:99: event 'a' (0xC0) field 'v': default 9223372036854775808 is out of range for s64 "
            "(-9223372036854775808 to 9223372036854775807)");
  EXPECT_EQ(with_default("s8", "-129"), "d.json:3:98: event 'a' (0xC0) field 'v': default -129 is out of range for s8 "
                                        "(-128 to 127)");
  EXPECT_EQ(with_default("s8", "128"), "d.json:3:98: event 'a' (0xC0) field 'v': default 128 is out of range for s8 "
                                       "(-128 to 127)");
  EXPECT_EQ(with_default("u16", "65536"), "d.json:3:99: event 'a' (0xC0) field 'v': default 65536 is out of range for "
                                          "u16 (0 to 65535)");
  EXPECT_EQ(with_default("u32", "4294967296"), "d.json:3:99: event 'a' (0xC0) field 'v': default 4294967296 is out of "
                                               "range for u32 (0 to 4294967295)");
  for (const auto& [type, value] : {std::pair{"s64", "9223372036854775807"}, std::pair{"s64", "-9223372036854775808"},
                                    std::pair{"s8", "-128"}, std::pair{"u16", "65535"},
                                    std::pair{"u64", "18446744073709551615"}}) {
    EXPECT_EQ(with_default(type, value), "(loaded)") << type << " " << value;
  }
}

std::string nested_array(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

TEST(RuntimeSchema, DeepValuesAreRefusedWhileParsing) {
  // Each is a value a message quotes: dumping it recursed once per level and overflowed the stack.
  const std::string deep = nested_array(100'000);
  EXPECT_EQ(load_error(R"({"format": "tband-schema-descriptor", "version": )" + deep + "}"),
            "d.json:1:113: nested deeper than 64 levels");
  EXPECT_EQ(load_error(descriptor(R"([{"name": "a", "id": 192, "fields": [)" + kTs + R"(,
                                        {"name": "m", "type": "Mode", "optional": true, "default": )" + deep + "}]}])",
                                  R"([{"name": "Mode", "values": [{"name": "SLOW", "value": 0}]}])")),
            "d.json:3:159: nested deeper than 64 levels");
  EXPECT_EQ(load_error(descriptor(R"([{"name": "a", "id": 192, "fields": [)" + kTs + R"(],
                                        "display": {"kind": "counter", "value": )" + deep + "}}])")),
            "d.json:3:141: nested deeper than 64 levels");
  // 64 levels are fine as JSON (and wrong as a version), and quoted short.
  const std::string error = load_error(R"({"format": "tband-schema-descriptor", "version": )" + nested_array(63) + "}");
  EXPECT_EQ(error, "d.json:1:50: descriptor version " + std::string(60, '[') + "... is not the one this tband reads (1); "
                   "regenerate it with this tband's tband-codegen");
}

TEST(RuntimeSchema, DuplicateKeysAreRefusedWithThePlace) {
  EXPECT_EQ(load_error(descriptor(R"([{"name": "a", "id": 199, "id": 250, "fields": [)" + kTs + "]}]")),
            "d.json:2:87: duplicate key \"id\" (each key may appear once in an object)");
  EXPECT_EQ(load_error("{\"format\": 1,\n \"format\": 2}"),
            "d.json:2:2: duplicate key \"format\" (each key may appear once in an object)");
}

TEST(RuntimeSchema, ValuesOfTheWrongTypeNameTheEventKeyAndPlace) {
  // These gave nlohmann's "[json.exception.type_error.302] type must be string, but is number".
  EXPECT_EQ(load_error(descriptor(R"([{"name": "a", "id": 192, "fields": [)" + kTs + R"(],
                                        "display": {"kind": 5}}])")),
            "d.json:3:61: event 'a' (0xC0) display: \"kind\" must be a string, not 5");
  EXPECT_EQ(load_error(R"({"format": 1})"),
            "d.json:1:12: not a tband schema descriptor (no \"format\": \"tband-schema-descriptor\"); the generator "
            "writes one as descriptor/tband_schema.json");
  EXPECT_EQ(load_error(descriptor(R"([{"name": "a", "id": 192, "group": 7, "fields": [)" + kTs + "]}]")),
            "d.json:2:96: event 'a' (0xC0): \"group\" must be a string, not 7");
  EXPECT_EQ(load_error(descriptor(R"([{"name": "a", "id": 192, "fields": [)" + kTs + R"(],
                                        "display": {"track": ["t"]}}])")),
            "d.json:3:62: event 'a' (0xC0) display: track must be a string, not [\"t\"]");
  EXPECT_EQ(load_error(descriptor("[]", R"([{"name": "E", "description": {}, "values": []}])")),
            "d.json:2:77: enum 'E': \"description\" must be a string, not {}");
}

TEST(RuntimeSchema, LongNamesAreQuotedShort) {
  const std::string name(100'000, 'n');
  const std::string error = load_error(descriptor(R"([{"name": ")" + name + R"(", "id": 300, "fields": []}])"));
  EXPECT_EQ(error, "d.json:2:100081: event '" + std::string(60, 'n') + "...': id must be 0..255");
}

TEST(RuntimeSchema, DisplayRulesGetTheirDefaults) {
  const RuntimeSchema s = RuntimeSchema::from_descriptor(
      descriptor(R"([
        {"name": "plain", "id": 192, "fields": [)" + kTs + R"(]},
        {"name": "named", "id": 193, "fields": [)" + kTs + R"(, {"name": "m", "type": "u8"}],
         "display": {"track": "motor {m}!{{x}}"}},
        {"name": "level", "id": 194, "fields": [)" + kTs + R"(, {"name": "v", "type": "f32"}],
         "display": {"kind": "counter", "value": "v", "unit": "V"}}])"),
      "d.json");
  const DisplayRule& plain = s.find(192)->display;
  EXPECT_FALSE(s.find(192)->has_display);
  EXPECT_EQ(plain.kind, DisplayKind::kInstant);
  EXPECT_EQ(plain.place, DisplayPlace::kCore);  // the core's "Other events", as without a schema
  const DisplayRule& named = s.find(193)->display;
  EXPECT_EQ(named.place, DisplayPlace::kGlobal);  // a track of its own: at the top level
  ASSERT_TRUE(named.track);
  ASSERT_EQ(named.track->parts.size(), 3u);
  EXPECT_EQ(named.track->parts[0].text, "motor ");
  EXPECT_EQ(named.track->parts[1].field, 1);
  EXPECT_EQ(named.track->parts[2].text, "!{x}");
  const DisplayRule& level = s.find(194)->display;
  EXPECT_EQ(level.place, DisplayPlace::kGlobal);
  EXPECT_EQ(level.value_field, 1);
  EXPECT_EQ(level.unit, "V");
}

TEST(RuntimeSchema, NameRulesAreReadAndCheckedWithThePlace) {
  const std::string fields = R"([{"name": "pack", "type": "u8"}, {"name": "label", "type": "str"}])";
  const RuntimeSchema s = RuntimeSchema::from_descriptor(
      descriptor(R"([{"name": "pack_name", "id": 192, "metadata": true, "fields": )" + fields + R"(,
                      "display": {"kind": "name", "key": ["pack"], "name": "{label}"}}])"),
      "d.json");
  const DisplayRule& rule = s.find(192)->display;
  EXPECT_EQ(rule.kind, DisplayKind::kName);
  EXPECT_EQ(rule.key_fields, std::vector<int>{0});
  ASSERT_TRUE(rule.name);
  EXPECT_EQ(rule.name->parts.at(0).field, 1);
  // Not on a timed event; one key field, required, not a float; a label.
  EXPECT_EQ(load_error(descriptor(R"([{"name": "a", "id": 192, "fields": [)" + kTs + R"(],
                                        "display": {"kind": "name", "key": [], "name": "x"}}])")),
            "d.json:3:61: event 'a' (0xC0) display: a name rule belongs on a metadata event");
  EXPECT_EQ(load_error(descriptor(R"([{"name": "a", "id": 192, "metadata": true, "fields": )" + fields + R"(,
                                        "display": {"kind": "name", "key": ["pack", "label"], "name": "x"}}])")),
            "d.json:3:76: event 'a' (0xC0) display: a name rule's key must be an array of one field name");
  EXPECT_EQ(load_error(descriptor(R"([{"name": "a", "id": 192, "metadata": true, "fields": )" + fields + R"(,
                                        "display": {"kind": "name", "key": ["pack"]}}])")),
            "d.json:3:52: event 'a' (0xC0) display: a name rule needs \"name\", the label");
}

// ---- picking schemas ------------------------------------------------------------

std::shared_ptr<const RuntimeSchema> app_schema(const std::string& trace_id, const std::string& event_name) {
  return std::make_shared<const RuntimeSchema>(RuntimeSchema::from_descriptor(
      R"({"format": "tband-schema-descriptor", "version": 1, "trace_id": ")" + trace_id +
          R"(", "user_groups": ["app"], "enums": [], "events": [
            {"name": ")" + event_name + R"(", "id": 192, "fields": [)" + kTs + R"(]},
            {"name": "isr_enter", "id": 4, "fields": [)" + kTs + R"(]}]})",
      "app-" + trace_id + ".json"));
}

TEST(SchemaSet, CompiledIdsStayCompiledAndClashesAreReported) {
  SchemaSet set{{all_event_infos(), kSchemaTraceId}};
  set.add_given(app_schema("00000000000000aa", "app_tick"));
  ASSERT_NE(set.find(192), nullptr);
  EXPECT_EQ(set.find(192)->info.name, "app_tick");
  EXPECT_EQ(set.find(4), nullptr) << "isr_enter is compiled in";
  ASSERT_EQ(set.conflicts().size(), 1u);
  EXPECT_EQ(set.conflicts()[0], "app-00000000000000aa.json defines id 0x04 as 'isr_enter', which this tband decodes "
                                "as its own 'isr_enter' (another tband version?); the built-in decoding applies");
  set.add_given(app_schema("00000000000000ab", "app_tick"));  // the same event again: fine
  EXPECT_THROW(set.add_given(app_schema("00000000000000ac", "app_beat")), SchemaLoadError);
}

TEST(SchemaSet, TheTracesSchemaIdPicksACandidateOrSaysWhatIsMissing) {
  const std::string path = temp_path("app.json");
  {
    std::ofstream out(path);
    out << R"({"format": "tband-schema-descriptor", "version": 1, "trace_id": "3fa2000000000001",
               "user_groups": ["app"], "enums": [], "events": [{"name": "app_tick", "id": 200, "fields": [)"
        << kTs << "]}]}";
  }
  SchemaSet set{{all_event_infos(), kSchemaTraceId}};
  set.add_candidate(path);
  set.set_search_description("here");
  EXPECT_EQ(set.find(200), nullptr);
  set.on_schema_id(0x3fa2000000000001ull, "app");
  ASSERT_NE(set.find(200), nullptr);
  EXPECT_FALSE(set.identity_problem());

  set.reset_trace();
  EXPECT_EQ(set.find(200), nullptr) << "the next trace starts without it";
  set.on_schema_id(0x1234ull, "motor,app");
  ASSERT_TRUE(set.identity_problem());
  EXPECT_EQ(*set.identity_problem(),
            "trace written with schema 0000000000001234, groups motor,app; pass --schema with its descriptor "
            "(none matches on the search path: here)");
  set.count_unknown(200, "t.bin", 40);
  set.count_unknown(200, "t.bin", 50);
  set.count_unknown(201, "t.bin", 12);
  EXPECT_EQ(set.unknown_ids_message().value(),
            "3 frame(s) with unknown event ids 0xC8 (2), 0xC9 (1); the first at t.bin byte 12");

  set.reset_trace();
  set.on_schema_id(kSchemaTraceId, "");
  EXPECT_FALSE(set.identity_problem()) << "the binary's own schema";
  set.count_unknown(230, "t.bin", 7);
  EXPECT_EQ(set.unknown_ids_message().value(),
            "1 frame(s) with unknown event id 0xE6 (1); the first at t.bin byte 7; the trace's schema " +
                trace_id_hex(kSchemaTraceId) + ", no user groups does not define it");
}

}  // namespace
}  // namespace tband::test
