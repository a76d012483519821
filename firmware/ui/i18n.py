"""The UI's strings: one text table per language in ui/lang/CODE.txt.

The tables are data, not code: only the language in use is read into RAM, and
adding a language is adding a file (`key = text`, one per line, UTF-8).
"""

LANGS = ("fr", "en", "de", "it")


def _dir():
    try:
        f = __file__
    except NameError:  # pragma: no cover
        f = "ui/i18n.py"
    i = f.rfind("/")
    return (f[:i] if i >= 0 else ".") + "/lang/"


def load(code):
    """The table of language `code` (French when it is unknown), as a dict."""
    if code not in LANGS:
        code = "fr"
    table = {}
    with open(_dir() + code + ".txt") as f:
        for line in f:
            if line.startswith("#"):
                continue
            k, sep, v = line.partition(" = ")
            if sep:
                table[k.strip()] = v.rstrip("\r\n")
    return table
