#include "ctl/protocol.hpp"

#include <array>
#include <charconv>
#include <sstream>
#include <variant>

#include "decode/cobs_deframer.hpp"
#include "tband_events.hpp"

// A C header: its casts are C casts.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
#include "tband/crc16.h"
#pragma GCC diagnostic pop

namespace tband::ctl {

namespace {

struct Known {
  std::string_view name;
  std::uint8_t code;
};

// The command bytes (target/src/control.hpp).
constexpr std::array kCommands = {
    Known{"start", 0x01},    Known{"stop", 0x02},     Known{"metadata", 0x03}, Known{"snapshot", 0x04},
    Known{"dropped", 0x05},  Known{"rejected", 0x06}, Known{"restart", 0x07},
};

std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  std::istringstream in{std::string(text)};
  for (std::string word; in >> word;) {
    out.push_back(word);
  }
  return out;
}

// The filter keys (TBAND_FILTER_KEY_* in the generated tband_user_events.h;
// the runtime_control test checks they agree).
constexpr std::array kFilterKeys = {
    Known{"isr", 1}, Known{"evtmarker", 2}, Known{"valmarker", 3}, Known{"task", 4}, Known{"queue", 5},
};

constexpr std::string_view kFilterUsage =
    "filter -KEY ID | +KEY ID (KEY: isr, evtmarker, valmarker, task, queue), filter -event NAME | +event NAME, "
    "filter -group NAME | +group NAME, filter clear";

// Longest group name: a 32-byte receive buffer less command, traced byte and CRC.
constexpr std::size_t kMaxGroupName = 28;

std::optional<std::uint32_t> number(const std::string& text) {
  std::uint32_t value = 0;
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const char* first = text.data() + (hex ? 2 : 0);
  const char* last = text.data() + text.size();
  const auto [end, ec] = std::from_chars(first, last, value, hex ? 16 : 10);
  if (ec != std::errc{} || end != last || first == last) {
    return std::nullopt;
  }
  return value;
}

Command parse_filter(std::string_view text, const std::vector<std::string>& w) {
  const auto fail = [&](const std::string& why) {
    return CommandError("'" + std::string(text) + "': " + why + "; expected " + std::string(kFilterUsage));
  };
  if (w.size() == 2 && w[1] == "clear") {
    return Command{0x0B, {}, "filter clear"};
  }
  if (w.size() != 3 || w[1].size() < 2 || (w[1][0] != '-' && w[1][0] != '+')) {
    throw fail("not a filter command");
  }
  const std::uint8_t traced = w[1][0] == '+' ? 1 : 0;
  const std::string what = w[1].substr(1);
  const std::string& arg = w[2];
  const std::string name = "filter " + w[1] + " " + arg;
  if (what == "event") {
    std::optional<std::uint32_t> id = number(arg);
    if (!id) {
      for (const EventInfo& info : all_event_infos()) {
        if (info.name == arg) {
          id = info.id;
        }
      }
    }
    if (!id || *id > 0xFF) {
      throw fail("no event '" + arg + "' (give its name or its id, 0 to 255)");
    }
    return Command{0x08, {static_cast<std::uint8_t>(*id), traced}, name};
  }
  if (what == "group") {
    if (arg.size() > kMaxGroupName) {
      throw fail("group name longer than " + std::to_string(kMaxGroupName) + " bytes");
    }
    Command command{0x09, {traced}, name};
    command.args.insert(command.args.end(), arg.begin(), arg.end());
    return command;
  }
  for (const Known& key : kFilterKeys) {
    if (what == key.name) {
      const std::optional<std::uint32_t> id = number(arg);
      if (!id || *id >= (1u << 24)) {
        throw fail("'" + arg + "' is no object id (0 to 16777215)");
      }
      return Command{0x0A,
                     {key.code, traced, static_cast<std::uint8_t>(*id >> 24), static_cast<std::uint8_t>(*id >> 16),
                      static_cast<std::uint8_t>(*id >> 8), static_cast<std::uint8_t>(*id)},
                     name};
    }
  }
  throw fail("unknown filter key '" + what + "'");
}

}  // namespace

std::string command_names() {
  std::string out;
  for (const Known& known : kCommands) {
    out += (out.empty() ? "" : ", ") + std::string(known.name);
  }
  return out + ", filter ...";
}

Command parse_command(std::string_view text) {
  const std::vector<std::string> w = words(text);
  if (w.empty()) {
    throw CommandError("empty command; expected one of: " + command_names());
  }
  if (w[0] == "filter") {
    return parse_filter(text, w);
  }
  for (const Known& known : kCommands) {
    if (w[0] == known.name) {
      if (w.size() > 1) {
        throw CommandError("'" + std::string(text) + "': " + w[0] + " takes no arguments");
      }
      return Command{known.code, {}, w[0]};
    }
  }
  throw CommandError("unknown command '" + w[0] + "'; expected one of: " + command_names());
}

std::vector<std::uint8_t> encode_payload(std::span<const std::uint8_t> payload) {
  std::vector<std::uint8_t> raw(payload.begin(), payload.end());
  const std::uint16_t crc = tband_crc16(raw.data(), raw.size());
  raw.push_back(static_cast<std::uint8_t>(crc >> 8));
  raw.push_back(static_cast<std::uint8_t>(crc & 0xFFu));
  // COBS: each block is a code byte (its length + 1) and up to 254 non-zero bytes.
  std::vector<std::uint8_t> out{0};
  std::size_t code_at = 0;
  for (const std::uint8_t byte : raw) {
    if (byte == 0 || out.size() - code_at == 0xFF) {
      out[code_at] = static_cast<std::uint8_t>(out.size() - code_at);
      code_at = out.size();
      out.push_back(0);
      if (byte == 0) {
        continue;
      }
    }
    out.push_back(byte);
  }
  out[code_at] = static_cast<std::uint8_t>(out.size() - code_at);
  out.push_back(0);
  return out;
}

std::vector<std::uint8_t> encode_frame(const Command& command) {
  std::vector<std::uint8_t> payload{command.code};
  payload.insert(payload.end(), command.args.begin(), command.args.end());
  return encode_payload(payload);
}

std::string status_text(std::uint32_t status) {
  switch (status) {
    case kDone:
      return "done";
    case kRefused:
      return "refused (not in this state: already on, or not on)";
    case kFailed:
      return "failed (the link dropped what it sends)";
    case kNotBuilt:
      return "not in this firmware's build (another backend)";
    case kUnknown:
      return "unknown to the target";
    case kBadArguments:
      return "bad arguments";
    default:
      return "status " + std::to_string(status);
  }
}

AckReader::AckReader() : deframer_(std::make_unique<CobsDeframer>(4096)) {}
AckReader::~AckReader() = default;

std::vector<Ack> AckReader::feed(std::span<const std::uint8_t> bytes) {
  std::vector<Ack> acks;
  deframer_->feed(bytes, [&](const RawFrame& frame) {
    if (frame.error != nullptr || frame.data.empty() || frame.data[0] != CtlAck::kId) {
      return;
    }
    const DecodeResult decoded = decode_event(frame.data);
    if (!decoded.ok()) {
      return;
    }
    if (const auto* ack = std::get_if<CtlAck>(&decoded.value())) {
      acks.push_back(Ack{static_cast<std::uint8_t>(ack->cmd), ack->status, ack->value});
    }
  });
  return acks;
}

}  // namespace tband::ctl
