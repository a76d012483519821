"""CRC-32 (the one of zlib and binascii) in plain bytecode, for a port without
binascii.crc32 (store/crc.py imports it only there: MicroPython v1.28's unix port
and stock rp2 build have binascii.crc32, so on the Pico this code never takes heap).

The loop works on two 16-bit halves, which stays in small ints (CRC values pass
2**30, and a big int per byte would be slow and allocate on 32-bit MicroPython).
"""
import array

_TABLE_LOW = None  # built on first use
_TABLE_HIGH = None


def _build_tables():
    global _TABLE_LOW, _TABLE_HIGH
    table_low = array.array("H", bytes(512))
    table_high = array.array("H", bytes(512))
    for index in range(256):
        value = index
        for _ in range(8):
            value = (value >> 1) ^ 0xEDB88320 if value & 1 else value >> 1
        table_low[index] = value & 0xFFFF
        table_high[index] = value >> 16
    _TABLE_LOW = table_low
    _TABLE_HIGH = table_high


def crc32_py(data):
    """Plain bytecode, small ints only."""
    if _TABLE_LOW is None:
        _build_tables()
    low = 0xFFFF
    high = 0xFFFF
    table_low = _TABLE_LOW
    table_high = _TABLE_HIGH
    for byte in data:
        index = (low ^ byte) & 0xFF
        low = ((low >> 8) | ((high & 0xFF) << 8)) ^ table_low[index]
        high = (high >> 8) ^ table_high[index]
    return ((high << 16) | low) ^ 0xFFFFFFFF
