# What callers see of the viper function: viper's ptr8 accepts any buffer.
def sync_span(buf: bytearray, shadow: bytearray, start: int, count: int) -> int: ...

SPAN_SHIFT: int
SPAN_LAST: int
