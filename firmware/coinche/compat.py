"""`const` on both interpreters: MicroPython folds it at compile time, CPython just returns it."""
try:
    from micropython import const  # noqa: F401
except ImportError:  # CPython
    def const(x):
        return x
