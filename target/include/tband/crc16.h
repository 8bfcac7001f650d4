/* The frame check shared by the firmware and the host: CRC-16/CCITT-FALSE
 * (polynomial 0x1021, initial value 0xFFFF, bits not reflected, no final XOR;
 * check value 0x29B1 for the ASCII bytes "123456789"). C and C++.
 *
 * Used by the opt-in link integrity of the up-link and by the frames of the
 * host-to-target control channel. Why 16 bits: for frames as short as
 * tband's (a few to a few dozen bytes) this polynomial detects every error of
 * up to 3 flipped bits and every burst of up to 16 bits, and lets through only
 * 1 in 65,536 of other corruptions; 8 bits would let 1 in 256 through, too many
 * on a noisy UART carrying thousands of frames a second.
 *
 * Computed a nibble at a time from a 16-entry table (32 bytes of flash) rather
 * than a bit at a time (8 shift-and-test steps per byte) or a byte at a time
 * (a 512-byte table). */
#ifndef TBAND_CRC16_H_
#define TBAND_CRC16_H_

#include <stddef.h>
#include <stdint.h>

#define TBAND_CRC16_INIT 0xFFFFu

static const uint16_t tband_crc16_nibble_table[16] = {
    0x0000u, 0x1021u, 0x2042u, 0x3063u, 0x4084u, 0x50A5u, 0x60C6u, 0x70E7u,
    0x8108u, 0x9129u, 0xA14Au, 0xB16Bu, 0xC18Cu, 0xD1ADu, 0xE1CEu, 0xF1EFu,
};

/* The CRC after one more byte. */
static inline uint16_t tband_crc16_update(uint16_t crc, uint8_t byte) {
  crc = (uint16_t)((crc << 4) ^ tband_crc16_nibble_table[((crc >> 12) ^ (byte >> 4)) & 0x0Fu]);
  crc = (uint16_t)((crc << 4) ^ tband_crc16_nibble_table[((crc >> 12) ^ byte) & 0x0Fu]);
  return crc;
}

/* The CRC of `len` bytes, starting from TBAND_CRC16_INIT. */
static inline uint16_t tband_crc16(const uint8_t* data, size_t len) {
  uint16_t crc = TBAND_CRC16_INIT;
  for (size_t i = 0; i < len; ++i) crc = tband_crc16_update(crc, data[i]);
  return crc;
}

#endif /* TBAND_CRC16_H_ */
