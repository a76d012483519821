"""Board: Raspberry Pi Pico W with a Pimoroni Pico Display Pack.

The pack plugs onto the Pico's headers, so the pins are fixed by the pack;
the options below are what a builder may change.  Deploy installs this file
on the Pico as /board.py.

Holding the pack in landscape with the screen upright, A and B sit on the
left edge (A on top) and X and Y on the right edge (X on top): the left
pair moves (UP/DOWN), the right pair answers (OK/BACK).
"""
import time

from machine import PWM, SPI, Pin

from drivers.st7789 import ST7789

# -- options: edit these ---------------------------------------------------
SPI_BAUD = 62_500_000  # the ST7789 is specified to 62.5 MHz write clock
BACKLIGHT_HZ = 1000
LED_LEVEL = 0  # RGB LED brightness for the click blink, 0 (off) .. 65535
STORAGE = ("/data_a", "/data_b")  # the journal's two copies (docs/storage.md)
PORT_BOARD = "RPI_PICO_W"  # MicroPython's port board of `make uf2`: "RPI_PICO_W", or "RPI_PICO2_W" on a Pico 2 W
# The WiFi chip (CYW43) holds GPIO 23, 24, 25 and 29 (and the board's LED): keep every pin off them.
# ---------------------------------------------------------------------------

# Fixed by the pack (Pimoroni's pinout).
SCK = 18
MOSI = 19
CS = 17
DC = 16
BACKLIGHT = 20
BUTTON_PINS = (12, 13, 14, 15)  # UP=A, DOWN=B, OK=X, BACK=Y; each pulls to GND
LED_PINS = (6, 7, 8)  # R, G, B; common anode, so low = lit

NAME = "pico_w_display_pack"
WIFI = True  # the home screen shows the link's state (link/state.py)
LAYOUT = "240x135"
DRIVERS = ("st7789",)

_spi = SPI(0, SPI_BAUD, polarity=0, phase=0, sck=Pin(SCK), mosi=Pin(MOSI))
display = ST7789(
    _spi,
    dc=Pin(DC, Pin.OUT, value=1),
    cs=Pin(CS, Pin.OUT, value=1),
    backlight=PWM(Pin(BACKLIGHT), freq=BACKLIGHT_HZ, duty_u16=0),
)


def _button(pin):
    return lambda: pin.value() == 0  # pressed pulls the pin to ground


# the app puts an edge interrupt on each (events/inputs.py): no press is lost while it is busy
button_pins = tuple(Pin(p, Pin.IN, Pin.PULL_UP) for p in BUTTON_PINS)
buttons = tuple(_button(p) for p in button_pins)

ticks_ms = time.ticks_ms
sleep_ms = time.sleep_ms

# The LED is active low: invert=True makes duty 0 mean dark.
_led = tuple(PWM(Pin(p), freq=1000, duty_u16=0, invert=True) for p in LED_PINS)


def led(red, green, blue):
    """Set the RGB LED, each channel 0..65535."""
    _led[0].duty_u16(red)
    _led[1].duty_u16(green)
    _led[2].duty_u16(blue)


def click():
    """A short green blink of the LED (the pack has no buzzer)."""
    if LED_LEVEL:
        led(0, LED_LEVEL, 0)
        time.sleep_us(3000)
        led(0, 0, 0)
