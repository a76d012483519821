"""`python -m host_tools.uf2`: the one-file install (MicroPython with the scoreboard
frozen in), made by host_tools/device/uf2.py (kept at this name for the command)."""
import sys

from host_tools.device.uf2 import main

if __name__ == "__main__":
    sys.exit(main())
