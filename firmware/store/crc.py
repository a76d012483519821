"""CRC-32 (the one of zlib and binascii) on any port.

MicroPython v1.28 has binascii.crc32 on the unix port and in the stock rp2
build (MICROPY_PY_BINASCII_CRC32 with MICROPY_PY_DEFLATE, both on at the rp2
port's "extra features" level). A port without it gets the plain bytecode loop of
store/crc_bytecode.py, imported only there (with `make deploy` a module's code is
on the heap).
"""
try:
    from binascii import crc32  # noqa: F401  (unsigned, as zlib's, on MicroPython and CPython 3)
except ImportError:
    from store.crc_bytecode import crc32_py as crc32  # noqa: F401  (the name store.lines imports)
