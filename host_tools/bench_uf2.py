"""`python -m host_tools.bench_uf2`: the frozen image's heap on the emulated Pico, measured
by host_tools/bench/frozen.py (kept at this name for the command)."""
import sys

from host_tools.bench.frozen import main

if __name__ == "__main__":
    sys.exit(main())
