"""CRC-32 (the one of zlib and binascii) on any port, as fast as the port allows.

The stock rp2 firmware has no binascii.crc32, and a byte loop on 32-bit
MicroPython would allocate a big int per byte (CRC values pass 2**30). So:
binascii where present, else a viper loop (native code, the Pico has the
emitter), else a loop on two 16-bit halves that stays in small ints.
"""
import array

_T = array.array("I", [0] * 256)
for _n in range(256):
    _c = _n
    for _ in range(8):
        _c = (_c >> 1) ^ 0xEDB88320 if _c & 1 else _c >> 1
    _T[_n] = _c
_LO = array.array("H", [x & 0xFFFF for x in _T])
_HI = array.array("H", [x >> 16 for x in _T])


def crc32_py(data):
    """Plain bytecode, small ints only."""
    lo = 0xFFFF
    hi = 0xFFFF
    tl = _LO
    th = _HI
    for b in data:
        i = (lo ^ b) & 0xFF
        lo = ((lo >> 8) | ((hi & 0xFF) << 8)) ^ tl[i]
        hi = (hi >> 8) ^ th[i]
    return ((hi << 16) | lo) ^ 0xFFFFFFFF


try:
    from store.crc_native import crc32 as _native

    def crc32_native(data):
        return _native(data, _T) & 0xFFFFFFFF
except Exception:  # a port without the native emitter fails to compile it
    crc32_native = None

try:
    from binascii import crc32  # unsigned, as zlib's, on MicroPython and CPython 3
except ImportError:
    crc32 = crc32_native or crc32_py
