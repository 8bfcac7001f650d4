"""Writes a ThreadX trace buffer in the other byte order, field by field
(header words and half-words, registry words, entry words; bytes and names
stay): how tests/threadx/vectors/linux_be32.trx was made from a buffer the
little-endian kernel wrote.

  python3 tests/threadx/byteswap.py IN.trx OUT.trx
"""
import struct
import sys


def swap(data: bytes) -> bytes:
    le = data[:4] == b"BTXT"
    src, dst = ("<", ">") if le else (">", "<")
    out = bytearray(data)

    def words(at, fmt):
        out[at:at + struct.calcsize(fmt)] = struct.pack(dst + fmt, *struct.unpack_from(src + fmt, data, at))

    header = struct.unpack_from(src + "4I2H7I", data, 0)
    base, name_size = header[2], header[5]
    reg_start, reg_end, buf_start, buf_end = (header[3] - base, header[6] - base, header[7] - base, header[8] - base)
    words(0, "4I2H7I")
    for at in range(reg_start, reg_end, 16 + name_size):
        words(at + 4, "3I")
    for at in range(buf_start, buf_end, 32):
        words(at, "8I")
    return bytes(out)


if __name__ == "__main__":
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    with open(sys.argv[2], "wb") as f:
        f.write(swap(data))
