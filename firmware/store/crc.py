"""CRC-32 (the one of zlib and binascii) on any port.

MicroPython v1.28 has binascii.crc32 on the unix port and in the stock rp2
build (MICROPY_PY_BINASCII_CRC32 with MICROPY_PY_DEFLATE, both on at the rp2
port's "extra features" level). A port without it gets a plain bytecode loop
on two 16-bit halves, which stays in small ints (CRC values pass 2**30, and a
big int per byte would be slow and allocate on 32-bit MicroPython).
"""
import array

_TABLE = array.array("I", [0] * 256)
for _index in range(256):
    _value = _index
    for _ in range(8):
        _value = (_value >> 1) ^ 0xEDB88320 if _value & 1 else _value >> 1
    _TABLE[_index] = _value
_TABLE_LOW = array.array("H", [x & 0xFFFF for x in _TABLE])
_TABLE_HIGH = array.array("H", [x >> 16 for x in _TABLE])


def crc32_py(data):
    """Plain bytecode, small ints only."""
    low = 0xFFFF
    high = 0xFFFF
    table_low = _TABLE_LOW
    table_high = _TABLE_HIGH
    for byte in data:
        index = (low ^ byte) & 0xFF
        low = ((low >> 8) | ((high & 0xFF) << 8)) ^ table_low[index]
        high = (high >> 8) ^ table_high[index]
    return ((high << 16) | low) ^ 0xFFFFFFFF


try:
    from binascii import crc32  # unsigned, as zlib's, on MicroPython and CPython 3
except ImportError:
    crc32 = crc32_py
