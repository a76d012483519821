"""Board: Raspberry Pi Pico W (or Pico 2 W) with a 128x64 I2C OLED: the Pico's board,
boards/pico_oled.py (its pins, display and buttons: edit them there), plus what the W
differs in. `make uf2 BOARD=pico_w_oled` (or deploy) puts both files on the Pico W:
this one as /board.py, the Pico's beside it as /pico_oled.py.
"""
from pico_oled import *  # noqa: F401,F403  the Pico's board: pins, display, buttons, click

PORT_BOARD = "RPI_PICO_W"  # MicroPython's port board of `make uf2`: "RPI_PICO_W", or "RPI_PICO2_W" on a Pico 2 W
# The WiFi chip (CYW43) holds GPIO 23, 24, 25 and 29 (and the board's LED): keep every pin off them.
NAME = "pico_w_oled"
WIFI = True  # the home screen shows the link's state (link/state.py)
