"""The UI's strings: one text table per language in render/lang/CODE.txt.

The tables are data, not code: only the language in use is read into RAM, and
adding a language is adding a file (`key = text`, one per line, UTF-8).
A frozen firmware image (the UF2) cannot hold data files: its build turns the
same files into the module render/language_tables.py (one function per language
returning its table, the strings constants in flash), which is read instead:
there a table is a render.constant_table.ConstantTable (two sorted tuples, constants
in flash too), so not even a dict of the language in use is built in RAM.
"""

LANGS = ("fr", "en", "de", "it")
# The texts only the settings screens draw (the keys "o_" + an option: its name, "o_help_"
# + an option: its one-line help, "o_value_" + a value: the value in words): kept out of
# the table in use, so that with `make deploy` their strings are on the heap only while
# those screens are open (about 4 KB of the Pico's heap); screens/settings.py reads them
# with read_file(). One prefix and no new name here: this module is imported at every
# start, and each name it adds is one more entry of the interpreter's string pool
# (docs/heap.md: the pool is near a growth of about 8 KB).
OPTION_PREFIX = "o_"


def _dir():
    try:
        f = __file__
    except NameError:  # pragma: no cover
        f = "render/languages.py"
    i = f.rfind("/")
    return (f[:i] if i >= 0 else ".") + "/lang/"


def load(code):
    """The table of language `code` (French when it is unknown), read like a dict: a
    render.language_table.LanguageTable (the keys in one string), in the frozen image a
    render.constant_table.ConstantTable."""
    if code not in LANGS:
        code = "fr"
    try:
        from render import language_tables  # pyright: ignore[reportAttributeAccessIssue]  (only in the frozen image: host_tools/uf2.py)
    except ImportError:
        return compact(read_file(code, skip=OPTION_PREFIX))
    return getattr(language_tables, code)()


def compact(table):
    """The dict `table` as a LanguageTable: its keys side by side in one string, its
    values the same strings (render/language_table.py says why; imported here, so the
    frozen image, whose tables are constants, never builds its class)."""
    import array

    from render.language_table import LanguageTable

    keys = list(table)
    starts = array.array("H", bytes(2 * (len(keys) + 1)))
    position = 0
    for index in range(len(keys)):
        starts[index] = position
        position += len(keys[index]) + 1
    starts[len(keys)] = position
    return LanguageTable("\n".join(keys) + "\n", starts, tuple([table[key] for key in keys]))


def read_file(code, skip=None, only=None):
    """The table in render/lang/`code`.txt, as a dict: without the keys that start with
    `skip`, or only those that start with `only`."""
    # The file (6 KB) is read 512 B at a time and cut up in place: per line only the key
    # (none when the code names it: then it is interned) and the value string are kept.
    # No block larger than a read and a line is needed, so a fragmented heap (a language
    # changed late in a long game) still finds room; the file is never whole in RAM.
    table = {}
    with open(_dir() + code + ".txt", "rb") as f:
        rest = b""  # the start of a line cut by the last read
        while True:
            chunk = f.read(512)
            data = rest + chunk if rest else chunk
            if not data:
                break
            n = data.rfind(b"\n") + 1 if chunk else len(data)  # whole lines; at the end, all
            mv = memoryview(data)
            i = 0
            while i < n:
                j = data.find(b"\n", i, n)
                if j < 0:
                    j = n
                if data[i] != 0x23:  # a "#" line is a comment
                    s = data.find(b" = ", i, j)
                    if s >= 0:
                        e = j
                        while e > s + 3 and data[e - 1] == 0x0D:  # "\r" of a CRLF file
                            e -= 1
                        key = str(mv[i:s], "utf-8").strip()
                        if not (skip and key.startswith(skip)) and (not only or key.startswith(only)):
                            table[key] = str(mv[s + 3:e], "utf-8")
                i = j + 1
            rest = data[n:]
            if not chunk:
                break
    return table
