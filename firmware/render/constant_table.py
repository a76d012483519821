"""A read-only table on two constant tuples, for the frozen image (the UF2 only:
`make deploy` leaves it out, host_tools/deploy.UF2_LANGUAGE_FIRMWARE).

The UF2's build turns the language files into render/language_tables.py, each table
a ConstantTable: frozen, its tuples and strings are constants in flash, so the
table costs the heap one small object instead of a dict of its 186 entries (1.5 KB),
and a look-up allocates nothing.
"""


class ConstantTable:
    """A table read like a dict (table[key], table.get(key, default), key in table, iteration
    over the keys) whose keys and values are two tuples, the keys sorted: frozen
    in the image they are constants in flash, and a look-up (a bisection of the
    keys) allocates nothing."""

    def __init__(self, sorted_keys, values):
        self.sorted_keys = sorted_keys
        self.values = values

    def index(self, key):
        """The position of key in sorted_keys, or -1."""
        keys = self.sorted_keys
        low = 0
        high = len(keys)
        while low < high:
            middle = (low + high) >> 1
            if keys[middle] < key:
                low = middle + 1
            else:
                high = middle
        return low if low < len(keys) and keys[low] == key else -1

    def __getitem__(self, key):
        i = self.index(key)
        if i < 0:
            raise KeyError(key)
        return self.values[i]

    def get(self, key, default=None):
        i = self.index(key)
        return default if i < 0 else self.values[i]

    def __contains__(self, key):
        return self.index(key) >= 0

    def __iter__(self):
        return iter(self.sorted_keys)

    def __len__(self):
        return len(self.sorted_keys)
