// The source arguments of tband record: every form it accepts, and the
// one-line message for each kind of mistake.
#include <gtest/gtest.h>

#include <string>

#include "record/serial_port.hpp"
#include "record/source_spec.hpp"

namespace tband::record {
namespace {

// The message parse_source_spec() throws for `arg` ("" if it accepts it).
std::string error_of(const std::string& arg) {
  try {
    (void)parse_source_spec(arg);
  } catch (const SourceSpecError& e) {
    return e.what();
  }
  return "";
}

const std::string kKinds =
    "; sources are serial:DEVICE[,baud=N][,flow=rtscts], tcp:HOST:PORT, file:PATH or - (stdin)";

TEST(SourceSpec, DashIsStandardInput) {
  const SourceSpec spec = parse_source_spec("-");
  EXPECT_EQ(spec.kind, SourceKind::kStdin);
  EXPECT_EQ(spec.text, "-");
  EXPECT_FALSE(spec.core.has_value());
}

TEST(SourceSpec, SerialDefaultsTo115200WithoutFlowControl) {
  const SourceSpec spec = parse_source_spec("serial:/dev/ttyUSB0");
  EXPECT_EQ(spec.kind, SourceKind::kSerial);
  EXPECT_EQ(spec.path, "/dev/ttyUSB0");
  EXPECT_EQ(spec.baud, 115200U);
  EXPECT_FALSE(spec.rts_cts);
  EXPECT_EQ(spec.text, "serial:/dev/ttyUSB0");
}

TEST(SourceSpec, SerialOptions) {
  const SourceSpec spec = parse_source_spec("serial:/dev/ttyUSB0,baud=921600,flow=rtscts");
  EXPECT_EQ(spec.path, "/dev/ttyUSB0");
  EXPECT_EQ(spec.baud, 921600U);
  EXPECT_TRUE(spec.rts_cts);
  // Options apply in order: the last flow= wins.
  EXPECT_FALSE(parse_source_spec("serial:/dev/ttyACM0,flow=rtscts,flow=none").rts_cts);
  EXPECT_EQ(parse_source_spec("serial:/dev/ttyACM0,baud=9600,baud=4000000").baud, 4000000U);
  // A trailing comma ends the options.
  EXPECT_EQ(parse_source_spec("serial:/dev/ttyACM0,").path, "/dev/ttyACM0");
  EXPECT_EQ(parse_source_spec("serial:/dev/ttyACM0,baud=9600,").baud, 9600U);
}

TEST(SourceSpec, Tcp) {
  const SourceSpec spec = parse_source_spec("tcp:localhost:19021");
  EXPECT_EQ(spec.kind, SourceKind::kTcp);
  EXPECT_EQ(spec.host, "localhost");
  EXPECT_EQ(spec.port, "19021");
  EXPECT_EQ(parse_source_spec("tcp:localhost:65535").port, "65535");
  EXPECT_EQ(parse_source_spec("tcp:localhost:1").port, "1");
}

TEST(SourceSpec, TcpIpv6InBracketsAndServiceNames) {
  const SourceSpec v6 = parse_source_spec("tcp:[::1]:19021");
  EXPECT_EQ(v6.host, "::1");
  EXPECT_EQ(v6.port, "19021");
  // The port is split off at the last colon, so bare IPv6 works too.
  EXPECT_EQ(parse_source_spec("tcp:::1:19021").host, "::1");
  // A port that is not a number is a service name, left to getaddrinfo().
  EXPECT_EQ(parse_source_spec("tcp:localhost:telnet").port, "telnet");
}

TEST(SourceSpec, File) {
  const SourceSpec spec = parse_source_spec("file:/tmp/qemu-serial.bin");
  EXPECT_EQ(spec.kind, SourceKind::kFile);
  EXPECT_EQ(spec.path, "/tmp/qemu-serial.bin");
  // An '@' not followed by digits belongs to the path.
  const SourceSpec at = parse_source_spec("file:/tmp/a@b.bin");
  EXPECT_EQ(at.path, "/tmp/a@b.bin");
  EXPECT_FALSE(at.core.has_value());
}

TEST(SourceSpec, CoreSuffixOnEveryKind) {
  const SourceSpec serial = parse_source_spec("serial:/dev/ttyUSB0,baud=921600@1");
  EXPECT_EQ(serial.core, 1U);
  EXPECT_EQ(serial.baud, 921600U);
  EXPECT_EQ(serial.text, "serial:/dev/ttyUSB0,baud=921600");  // messages name it without "@N"
  const SourceSpec tcp = parse_source_spec("tcp:[::1]:19021@0");
  EXPECT_EQ(tcp.core, 0U);
  EXPECT_EQ(tcp.host, "::1");
  EXPECT_EQ(tcp.port, "19021");
  EXPECT_EQ(parse_source_spec("file:/tmp/core3.bin@3").core, 3U);
  EXPECT_EQ(parse_source_spec("file:/tmp/core3.bin@3").path, "/tmp/core3.bin");
  EXPECT_EQ(parse_source_spec("-@2").kind, SourceKind::kStdin);
  EXPECT_EQ(parse_source_spec("-@2").core, 2U);
}

TEST(SourceSpecErrors, SerialWithoutDevice) {
  EXPECT_EQ(error_of("serial:"), "serial:: no device given (serial:/dev/ttyUSB0)");
  EXPECT_EQ(error_of("serial:,baud=9600"), "serial:,baud=9600: no device given (serial:/dev/ttyUSB0)");
}

TEST(SourceSpecErrors, BaudRatesTermiosCannotSet) {
  const std::string list = supported_baud_rates();
  EXPECT_NE(list.find("115200"), std::string::npos);
  EXPECT_NE(list.find("921600"), std::string::npos);
  for (const std::string value : {"12345", "fast", "", "-9600", "115200x", "99999999999"}) {
    const std::string arg = "serial:/dev/ttyUSB0,baud=" + value;
    EXPECT_EQ(error_of(arg), arg + ": baud rate '" + value + "' is not one termios can set; use one of " + list)
        << value;
  }
}

TEST(SourceSpecErrors, UnknownSerialOption) {
  EXPECT_EQ(error_of("serial:/dev/ttyUSB0,parity=even"),
            "serial:/dev/ttyUSB0,parity=even: unknown serial option 'parity=even' (baud=N, flow=rtscts or flow=none)");
  EXPECT_EQ(error_of("serial:/dev/ttyUSB0,flow=xonxoff"),
            "serial:/dev/ttyUSB0,flow=xonxoff: unknown serial option 'flow=xonxoff' (baud=N, flow=rtscts or flow=none)");
  // An empty option between two others is one too (a trailing comma is not: SerialOptions).
  EXPECT_EQ(error_of("serial:/dev/ttyUSB0,,baud=9600"),
            "serial:/dev/ttyUSB0,,baud=9600: unknown serial option '' (baud=N, flow=rtscts or flow=none)");
}

TEST(SourceSpecErrors, TcpWithoutHostOrPort) {
  for (const std::string arg : {"tcp:", "tcp:localhost", "tcp::19021", "tcp:localhost:"}) {
    EXPECT_EQ(error_of(arg), arg + ": expected tcp:HOST:PORT (e.g. tcp:localhost:19021)") << arg;
  }
}

TEST(SourceSpecErrors, TcpPortOutOfRange) {
  EXPECT_EQ(error_of("tcp:localhost:0"), "tcp:localhost:0: port 0 is not between 1 and 65535");
  EXPECT_EQ(error_of("tcp:localhost:65536"), "tcp:localhost:65536: port 65536 is not between 1 and 65535");
  EXPECT_EQ(error_of("tcp:[::1]:70000@1"), "tcp:[::1]:70000: port 70000 is not between 1 and 65535");
}

TEST(SourceSpecErrors, FileWithoutPath) { EXPECT_EQ(error_of("file:"), "file:: no path given (file:PATH)"); }

TEST(SourceSpecErrors, NoOrUnknownKind) {
  EXPECT_EQ(error_of("/dev/ttyUSB0"), "'/dev/ttyUSB0': no source kind" + kKinds);
  EXPECT_EQ(error_of(":19021"), "':19021': no source kind" + kKinds);
  EXPECT_EQ(error_of("udp:localhost:19021"), "'udp:localhost:19021': unknown source kind 'udp'" + kKinds);
  EXPECT_EQ(error_of("Serial:/dev/ttyUSB0"), "'Serial:/dev/ttyUSB0': unknown source kind 'Serial'" + kKinds);
  EXPECT_EQ(error_of(""), "'': no source kind" + kKinds);
}

TEST(SourceSpecErrors, BadCoreSuffix) {
  EXPECT_EQ(error_of("-@"), "'-@': expected a core number after '@'");
  EXPECT_EQ(error_of("@1"), "'@1': missing file name before '@'");
  EXPECT_EQ(error_of("-@99999999999"), "'-@99999999999': core number out of range");
}

}  // namespace
}  // namespace tband::record
