"""`python -m host_tools.bench_uf2`: the frozen image's heap on the emulated Pico, measured
by host_tools/bench/frozen.py (this folder keeps the command's name)."""
import sys

from host_tools.bench.frozen import main

sys.exit(main())
