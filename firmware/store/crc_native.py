"""The CRC-32 byte loop as viper (native) code; store.crc falls back when a port cannot compile it."""
import micropython


@micropython.viper
def crc32(data, table) -> uint:
    buf = ptr8(data)
    t = ptr32(table)
    n = int(len(data))
    c = uint(0xFFFFFFFF)
    i = 0
    while i < n:
        c = uint(t[(c ^ uint(buf[i])) & 0xFF]) ^ (c >> 8)
        i += 1
    return c ^ uint(0xFFFFFFFF)
