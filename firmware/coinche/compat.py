"""What MicroPython has and CPython lacks, in one place: `const`, which MicroPython folds at
compile time and CPython just returns, and the `time.ticks_*` arithmetic, which CPython (the
tests, the planner, the static checks) does on plain integers. Every firmware module takes
them from here, so the fallback is written once."""
try:
    from micropython import const  # noqa: F401
except ImportError:  # CPython
    def const(x):
        return x

try:
    from time import ticks_add, ticks_diff  # noqa: F401
except ImportError:  # CPython: plain integers (no function of ours: its code would be on the Pico's heap too)
    ticks_diff = int.__sub__
    ticks_add = int.__add__
