"""`python -m host_tools.uf2`: the one-file install (MicroPython with the scoreboard
frozen in), made by host_tools/device/uf2.py (this folder keeps the command's name)."""
import sys

from host_tools.device.uf2 import main

sys.exit(main())
