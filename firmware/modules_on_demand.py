"""Modules loaded only while they are used, then released: the heap of `make deploy`.

With `make deploy`'s .mpy files on the stock rp2 firmware (which has no ROMFS),
an imported module's bytecode, constants and functions live on the heap for as
long as the module is referenced: 75 KB for the whole app, more than half of the
live heap of a game. So the code a game does not use (the journal's start-up
reading and repair, the screens off the deal-entry path) is imported when it is
needed and released afterwards (docs/bench.md, the .mpy heap rows). Its interned
names (qstrs) stay on the heap once loaded; its code and globals go. In the
frozen image (the UF2) the code is in flash: a release there only drops the
module's globals, and the next import builds them again.
"""
import sys


def release(name):
    """Forget the module `name` (dotted): out of sys.modules and out of its package,
    so that the garbage collector frees it once nothing else refers to it. The
    next import of it loads it again."""
    sys.modules.pop(name, None)
    dot = name.rfind(".")
    if dot > 0:
        package = sys.modules.get(name[:dot])
        attribute = name[dot + 1:]
        if package is not None and hasattr(package, attribute):
            delattr(package, attribute)
