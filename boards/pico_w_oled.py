"""Board: Raspberry Pi Pico W (or Pico 2 W) with a 128x64 I2C OLED.

The only file a builder edits: set the pins and options below to match the
wiring (docs/hardware.md has the drawing), then `make uf2 BOARD=pico_w_oled`.
Deploy installs this file on the Pico as /board.py.
"""
import time

from machine import I2C, PWM, Pin

# -- pins and options: edit these -----------------------------------------
CONTROLLER = "ssd1306"  # "ssd1306" (0.96" modules) or "sh1106" (1.3" modules)
I2C_ID = 0
SDA = 4  # GP4, physical pin 6
SCL = 5  # GP5, physical pin 7
I2C_FREQ = 400_000
OLED_ADDR = 0x3C  # some modules answer at 0x3D
BUTTON_PINS = (10, 11, 12, 13)  # UP, DOWN, OK, BACK: each to GND, no resistor
BUZZER = None  # a GPIO with a passive piezo to GND (e.g. 15), or None
CLICK_HZ = 4000
CLICK_US = 2000
STORAGE = ("/data_a", "/data_b")  # the journal's two copies (docs/storage.md)
PORT_BOARD = "RPI_PICO_W"  # MicroPython's port board of `make uf2`: "RPI_PICO_W", or "RPI_PICO2_W" on a Pico 2 W
# The WiFi chip (CYW43) holds GPIO 23, 24, 25 and 29 (and the board's LED): keep every pin off them.
# ---------------------------------------------------------------------------

NAME = "pico_w_oled"
WIFI = True  # the home screen shows the link's state (link/state.py)
LAYOUT = "128x64"
DRIVERS = ("ssd1306",)  # firmware/drivers/ modules deploy copies for this board

_i2c = I2C(I2C_ID, sda=Pin(SDA), scl=Pin(SCL), freq=I2C_FREQ)
if CONTROLLER == "sh1106":
    from drivers.ssd1306 import SH1106 as _Panel
else:
    from drivers.ssd1306 import SSD1306 as _Panel
display = _Panel(_i2c, OLED_ADDR)


def _button(pin):
    return lambda: pin.value() == 0  # pressed pulls the pin to ground


# the app puts an edge interrupt on each (events/inputs.py): no press is lost while it is busy
button_pins = tuple(Pin(p, Pin.IN, Pin.PULL_UP) for p in BUTTON_PINS)
buttons = tuple(_button(p) for p in button_pins)

ticks_ms = time.ticks_ms
sleep_ms = time.sleep_ms

_buzzer = None
if BUZZER is not None:
    _buzzer = PWM(Pin(BUZZER), freq=CLICK_HZ, duty_u16=0)


def click():
    """A 2 ms tick on the piezo: feedback that a key press registered."""
    if _buzzer is None:
        return
    _buzzer.duty_u16(32768)
    time.sleep_us(CLICK_US)
    _buzzer.duty_u16(0)
