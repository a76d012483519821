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


def _dir():
    try:
        f = __file__
    except NameError:  # pragma: no cover
        f = "render/languages.py"
    i = f.rfind("/")
    return (f[:i] if i >= 0 else ".") + "/lang/"


def load(code):
    """The table of language `code` (French when it is unknown), as a dict."""
    if code not in LANGS:
        code = "fr"
    try:
        from render import language_tables  # pyright: ignore[reportAttributeAccessIssue]  (only in the frozen image: host_tools/uf2.py)
    except ImportError:
        return read_file(code)
    return getattr(language_tables, code)()


def read_file(code):
    """The table in render/lang/`code`.txt, as a dict whose values are interned strings.

    On MicroPython a str of its own costs the heap a 16-byte object and a block for
    its bytes: 9 KB for the 196 strings of a table, as much as the code of a game. An
    interned string (a qstr) is its bytes packed in the interpreter's string pool,
    half of that, and the str built from the same bytes afterwards is that qstr,
    with nothing on the heap. MicroPython has no sys.intern(); getattr() interns
    the name it looks up (mp_obj_str_get_qstr), so each value is looked up once on
    None. Interned strings are never freed: a language chosen later adds its own
    (about 4 KB each; the four together still under the heap a table of strs takes).
    On CPython the look-up only returns None."""
    # The file is read whole (4 KB) and cut up in place: per line only the value
    # string is built (keys are the interned names the code uses).
    with open(_dir() + code + ".txt", "rb") as f:
        data = f.read()
    mv = memoryview(data)
    table = {}
    n = len(data)
    i = 0
    while i < n:
        j = data.find(b"\n", i)
        if j < 0:
            j = n
        if data[i] != 0x23:  # a "#" line is a comment
            s = data.find(b" = ", i, j)
            if s >= 0:
                e = j
                while e > s + 3 and data[e - 1] == 0x0D:  # "\r" of a CRLF file
                    e -= 1
                getattr(None, str(mv[s + 3:e], "utf-8"), None)  # interns the value (above)
                table[str(mv[i:s], "utf-8").strip()] = str(mv[s + 3:e], "utf-8")
        i = j + 1
    return table
