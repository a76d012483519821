"""A strict JSON reader (RFC 8259) that gives the same answer on CPython and
on MicroPython, for the calculator (host_tools/calculator/score.py).

MicroPython's `json` is lenient (it takes `{"a":1,}` and reads `12 0` as 12)
and CPython's takes NaN and Infinity; neither bounds nesting the same way.
This reader is the one both interpreters use, so they accept exactly the
same texts and build exactly the same values:

- objects (JSONObject, a dict; a repeated key is refused), arrays, strings,
  true, false, null;
- integers as int; a number with a fraction or an exponent becomes a
  NumberText, which keeps its source text (floats print differently on the
  two interpreters, and a deal record holds no fractions anyway);
- nesting deeper than MAX_DEPTH is refused with a message, never a crash.

Errors are JSONError(message, column) with a 1-based character column.
Written for this project from the grammar in RFC 8259.
"""

MAX_DEPTH = 16  # a deal record nests 3 deep: {"melds": {"NS": [...]}}
WHITESPACE = " \t\n\r"
DIGITS = "0123456789"
ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
HEX_DIGITS = "0123456789abcdefABCDEF"


class JSONError(ValueError):
    def __init__(self, message, column):
        super().__init__(message)
        self.message = message
        self.column = column


class NumberText:
    """A JSON number that is not a whole number, kept as its source text."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text

    def __eq__(self, other):
        return isinstance(other, NumberText) and other.text == self.text

    def __hash__(self):
        return hash(self.text)


class JSONObject(dict):
    """A JSON object: a dict whose repr lists the keys in the order they were
    written, on both interpreters (MicroPython's dict order is its own)."""

    def __init__(self):
        self.key_order = []

    def __repr__(self):
        return "{" + ", ".join("%r: %r" % (k, self[k]) for k in self.key_order) + "}"


def describe(char):
    """A character for an error message, printable ASCII whatever it is."""
    if char == "\ufeff":
        return "U+FEFF (a byte order mark)"
    code = ord(char)
    if 0x20 < code < 0x7F:
        return "'%s'" % char
    return "U+%04X" % code


def parse(text):
    """The value of one JSON text (a str). JSONError if it is not strict JSON."""
    i = _skip(text, 0)
    if i == len(text):
        raise JSONError("no value", i + 1)
    value, i = _value(text, i, 0)
    i = _skip(text, i)
    if i != len(text):
        raise JSONError("unexpected %s after the value" % describe(text[i]), i + 1)
    return value


def _skip(text, i):
    n = len(text)
    while i < n and text[i] in WHITESPACE:
        i += 1
    return i


def _value(text, i, depth):
    """(value, index after it); text[i] is not whitespace and exists."""
    c = text[i]
    if c == '"':
        return _string(text, i)
    if c == "{":
        return _object(text, i, depth + 1)
    if c == "[":
        return _array(text, i, depth + 1)
    if c == "-" or c in DIGITS:
        return _number(text, i)
    if text.startswith("true", i):
        return True, i + 4
    if text.startswith("false", i):
        return False, i + 5
    if text.startswith("null", i):
        return None, i + 4
    raise JSONError("unexpected %s where a value should be" % describe(c), i + 1)


def _expect_more(text, i, what):
    if i >= len(text):
        raise JSONError("the line ends where %s should be" % what, i + 1)


def _object(text, i, depth):
    if depth > MAX_DEPTH:
        raise JSONError("nested deeper than %d levels" % MAX_DEPTH, i + 1)
    out = JSONObject()
    i = _skip(text, i + 1)
    _expect_more(text, i, "a key or '}'")
    if text[i] == "}":
        return out, i + 1
    while True:
        if text[i] != '"':
            raise JSONError("expected a key in double quotes, found %s" % describe(text[i]), i + 1)
        key_at = i
        key, i = _string(text, i)
        if key in out:
            raise JSONError("the key %s appears twice" % quoted(key), key_at + 1)
        i = _skip(text, i)
        _expect_more(text, i, "':'")
        if text[i] != ":":
            raise JSONError("expected ':' after a key, found %s" % describe(text[i]), i + 1)
        i = _skip(text, i + 1)
        _expect_more(text, i, "a value")
        out[key], i = _value(text, i, depth)
        out.key_order.append(key)
        i = _skip(text, i)
        _expect_more(text, i, "',' or '}'")
        c = text[i]
        if c == "}":
            return out, i + 1
        if c != ",":
            raise JSONError("expected ',' or '}', found %s" % describe(c), i + 1)
        i = _skip(text, i + 1)
        _expect_more(text, i, "a key")


def _array(text, i, depth):
    if depth > MAX_DEPTH:
        raise JSONError("nested deeper than %d levels" % MAX_DEPTH, i + 1)
    out = []
    i = _skip(text, i + 1)
    _expect_more(text, i, "a value or ']'")
    if text[i] == "]":
        return out, i + 1
    while True:
        value, i = _value(text, i, depth)
        out.append(value)
        i = _skip(text, i)
        _expect_more(text, i, "',' or ']'")
        c = text[i]
        if c == "]":
            return out, i + 1
        if c != ",":
            raise JSONError("expected ',' or ']', found %s" % describe(c), i + 1)
        i = _skip(text, i + 1)
        _expect_more(text, i, "a value")


def _string(text, i):
    """text[i] is the opening quote."""
    end = text.find('"', i + 1)
    if end < 0:
        raise JSONError("a string is not closed", i + 1)
    body = text[i + 1:end]
    if "\\" not in body:  # the common case: no escapes
        k = i + 2
        for c in body:  # not body[k]: indexing a str is not O(1) on MicroPython
            if c < " ":
                raise JSONError("control character %s inside a string" % describe(c), k)
            k += 1
        return body, end + 1
    parts = []
    j = i + 1
    n = len(text)
    while True:
        if j >= n:
            raise JSONError("a string is not closed", i + 1)
        c = text[j]
        if c == '"':
            return "".join(parts), j + 1
        if c < " ":
            raise JSONError("control character %s inside a string" % describe(c), j + 1)
        if c != "\\":
            parts.append(c)
            j += 1
            continue
        if j + 1 >= n:
            raise JSONError("a string is not closed", i + 1)
        e = text[j + 1]
        if e in ESCAPES:
            parts.append(ESCAPES[e])
            j += 2
            continue
        if e != "u":
            raise JSONError("unknown escape \\%s" % (e if " " < e < "\x7f" else describe(e)), j + 1)
        code = _hex4(text, j)
        j += 6
        if 0xDC00 <= code <= 0xDFFF:
            raise JSONError("a \\u escape is half of a character (a lone low surrogate)", j - 5)
        if 0xD800 <= code <= 0xDBFF:
            if not text.startswith("\\u", j):
                raise JSONError("a \\u escape is half of a character (a lone high surrogate)", j - 5)
            low = _hex4(text, j)
            if not 0xDC00 <= low <= 0xDFFF:
                raise JSONError("a \\u escape is half of a character (a lone high surrogate)", j - 5)
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            j += 6
        parts.append(chr(code))


def _hex4(text, j):
    """The value of the four hex digits after the \\u at text[j]."""
    digits = text[j + 2:j + 6]
    if len(digits) != 4 or not all(d in HEX_DIGITS for d in digits):
        raise JSONError("\\u must be followed by four hex digits", j + 1)
    return int(digits, 16)


def _digits(text, i):
    n = len(text)
    while i < n and text[i] in DIGITS:
        i += 1
    return i


def _number(text, i):
    start = i
    if text[i] == "-":
        i += 1
    n = len(text)
    if i >= n or text[i] not in DIGITS:
        raise JSONError("a number needs a digit after '-'", i + 1)
    if text[i] == "0":
        i += 1
        if i < n and text[i] in DIGITS:
            raise JSONError("a number cannot start with 0", start + 1)
    else:
        i = _digits(text, i)
    whole = True
    if i < n and text[i] == ".":
        j = _digits(text, i + 1)
        if j == i + 1:
            raise JSONError("a number needs a digit after '.'", i + 2)
        i = j
        whole = False
    if i < n and text[i] in "eE":
        j = i + 1
        if j < n and text[j] in "+-":
            j += 1
        k = _digits(text, j)
        if k == j:
            raise JSONError("a number needs a digit in its exponent", j + 1)
        i = k
        whole = False
    if whole:
        return int(text[start:i]), i
    return NumberText(text[start:i]), i


def quoted(text):
    """A string for an error message: in double quotes, printable ASCII only."""
    return '"' + escape(text) + '"'


def escape(text):
    """Printable ASCII only: other characters as \\xNN, \\uNNNN or \\UNNNNNNNN,
    as Python writes them, so nothing from the input can drive the terminal."""
    for c in text:
        if not " " <= c <= "~":
            break
    else:
        return text  # the common case, no copy
    out = []
    for c in text:
        code = ord(c)
        if 0x20 <= code < 0x7F:
            out.append(c)
        elif code < 0x100:
            out.append("\\x%02x" % code)
        elif code < 0x10000:
            out.append("\\u%04x" % code)
        else:
            out.append("\\U%08x" % code)
    return "".join(out)
