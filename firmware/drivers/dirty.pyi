# What callers see of the viper function: viper's ptr8 accepts any buffer.
def sync_span(buf: bytearray, shadow: bytearray, start: int, count: int) -> int: ...

def sync_rows(buf: bytearray, shadow: bytearray, row_words: int, rows: int, flags: bytearray, force: int) -> int: ...

SPAN_SHIFT: int
SPAN_LAST: int
