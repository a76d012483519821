"""The language table in use with `make deploy` (render/languages.py reads it from
render/lang/CODE.txt): read like a dict, with its keys side by side in one string.

On MicroPython a dict of the table costs the heap a str object for every key the
code does not name as a literal (the keys it builds, "seat_" + seat, and those of
the screens loaded on demand: 155 of 220, about 5 KB of the Pico's heap) and a
slot array of 8 bytes per key. Here the keys are one string, found through a small
open-addressed index of their hashes: about half of that. Interning the keys
instead would fill the interpreter's string pool, whose next growth needs a block
of about 8 KB that a game's heap may no longer have (docs/heap.md).
"""
import array


class LanguageTable:
    """A table read like a dict (table[key], table.get(key, default), key in table,
    iteration over the keys, len) that allocates nothing on a look-up.

    keys: the keys, each followed by a newline; starts: where key i starts in keys
    (one more entry: where keys end); values: value i of key i; slots: key i + 1 at
    hash(key) modulo their number, or at the next free slot after it; 0 empty."""

    def __init__(self, keys, starts, values):
        self.keys = keys
        self.starts = starts
        self.values = values
        count = len(values)
        size = count + count // 2 + 1
        self.slots = slots = bytearray(size) if count < 255 else array.array("H", bytes(2 * size))
        for index in range(count):
            slot = hash(keys[starts[index]:starts[index + 1] - 1]) % size
            while slots[slot]:
                slot = slot + 1 if slot + 1 < size else 0
            slots[slot] = index + 1

    def index(self, key):
        """The position of key among the keys, or -1."""
        slots = self.slots
        size = len(slots)
        starts = self.starts
        length = len(key)
        slot = hash(key) % size
        while True:
            found = slots[slot]
            if not found:
                return -1
            start = starts[found - 1]
            if starts[found] - start - 1 == length and self.keys.startswith(key, start):
                return found - 1
            slot = slot + 1 if slot + 1 < size else 0

    def __getitem__(self, key):
        found = self.index(key)
        if found < 0:
            raise KeyError(key)
        return self.values[found]

    def get(self, key, default=None):
        found = self.index(key)
        return default if found < 0 else self.values[found]

    def __contains__(self, key):
        return self.index(key) >= 0

    def __iter__(self):
        keys = self.keys
        starts = self.starts
        for index in range(len(self.values)):
            yield keys[starts[index]:starts[index + 1] - 1]

    def __len__(self):
        return len(self.values)
