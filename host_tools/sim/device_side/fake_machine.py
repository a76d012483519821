"""A stand-in for the rp2 `machine` module, at the level of wires and buses.

The board files and drivers run unchanged on the MicroPython unix port with
this module installed as `machine` (hwsim does that).  Pins have levels,
pull-ups and an outside world that can drive them (a finger on a button);
I2C and SPI carry bytes to attached device models (host_tools/sim/device_side/models/),
which decode them like the real controller would.  Nothing here records
calls for a test to inspect: what a test sees is what a device would see.

Pin numbers are checked like the RP2040 checks them, so a board file with a
wrong SDA pin fails in the simulator the way it fails on the bench.
"""
from micropython import const

_EIO = const(5)  # what rp2 raises when nobody acknowledges the address

# -- wires ---------------------------------------------------------------


class _Wire:
    """The state of one GPIO, shared by every Pin object made for it."""

    def __init__(self, ident):
        self.id = ident
        self.mode = -1  # not configured: floating input
        self.pull = None
        self.out = 0
        self.ext = None  # level forced from outside (None = nobody drives it)
        self.pwm = None  # the PWM object driving the pin, if any
        self.irq = None  # _PinIrq once Pin.irq() was called

    def level(self):
        if self.pwm is not None and self.pwm.active:
            return 1 if self.pwm.level() else 0
        if self.mode == Pin.OUT:
            return self.out
        if self.mode == Pin.OPEN_DRAIN and self.out == 0:
            return 0
        if self.ext is not None:
            return self.ext
        if self.pull == Pin.PULL_UP:
            return 1
        return 0


_wires = {}


def _one_per_ident(table, kind, ident):
    """table[ident], made as kind(ident) the first time it is asked for: one wire per pin,
    one bus per I2C/SPI block, shared by everything that opens it."""
    thing = table.get(ident)
    if thing is None:
        thing = table[ident] = kind(ident)
    return thing


def _norm(ident):
    if isinstance(ident, Pin):
        return ident.wire.id
    if isinstance(ident, str) and ident.startswith("GP"):
        return int(ident[2:])
    return ident


def _wire(ident):
    ident = _norm(ident)
    if isinstance(ident, int) and not 0 <= ident <= 47:
        raise ValueError("invalid pin")
    return _one_per_ident(_wires, _Wire, ident)


def _block_pin(given, default, usable, name):
    """The pin an I2C/SPI block is given (a Pin, "GPn" or a number; default when None),
    or ValueError("bad NAME pin") when the block cannot route its signal to it."""
    pin = default if given is None else _norm(given)
    if pin not in usable:
        raise ValueError("bad %s pin" % name)
    return pin


class Pin:
    IN = const(0)
    OUT = const(1)
    OPEN_DRAIN = const(2)
    ALT = const(3)
    PULL_UP = const(1)
    PULL_DOWN = const(2)
    IRQ_FALLING = const(4)
    IRQ_RISING = const(8)

    def __init__(self, ident, mode=-1, pull=-1, *, value=None, alt=-1):
        self.wire = _wire(ident)
        self.init(mode, pull, value=value)

    def init(self, mode=-1, pull=-1, *, value=None, alt=-1):
        w = self.wire
        before = w.level()
        if value is not None:
            w.out = 1 if value else 0
        if mode != -1:
            w.mode = mode
            if w.pwm is not None and mode in (Pin.IN, Pin.OUT, Pin.OPEN_DRAIN):
                w.pwm.active = False  # the pin is a GPIO again
                w.pwm = None
        if pull != -1:
            w.pull = pull
        _edge(w, before)

    def value(self, v=None):
        if v is None:
            return self.wire.level()
        w = self.wire
        before = w.level()
        w.out = 1 if v else 0
        _edge(w, before)
        return None

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    high = on
    low = off

    def toggle(self):
        self.value(1 - self.wire.out)

    def irq(self, handler=None, trigger=None, hard=None):
        """As on rp2: with arguments, (re)configure; either way, return the pin's irq
        object (its flags() are the edges behind the current call of the handler)."""
        w = self.wire
        if w.irq is None:
            w.irq = _PinIrq()
        if handler is not None or trigger is not None or hard is not None:
            w.irq.handler = handler
            w.irq.trigger = (IRQ_FALLING_OR_RISING if trigger is None else trigger) if handler else 0
            w.irq.hard = bool(hard)
        return w.irq

    def __repr__(self):
        return "Pin(%r)" % (self.wire.id,)


class _PinIrq:
    """The object Pin.irq() returns on rp2: handler, trigger, and flags()."""

    def __init__(self):
        self.handler = None
        self.trigger = 0
        self.hard = False
        self.edges = 0

    def flags(self):
        return self.edges


IRQ_FALLING_OR_RISING = const(12)


def _edge(w, before):
    """A level change on a wire: its handler runs at once, as a hard interrupt would."""
    after = w.level()
    irq = w.irq
    if after == before or irq is None or irq.handler is None:
        return
    edge = Pin.IRQ_RISING if after else Pin.IRQ_FALLING
    if irq.trigger & edge:
        irq.edges = edge
        irq.handler(Pin(w.id))


# -- the outside world (used by the simulator and the tests) -------------


def drive(ident, level):
    """Force a pin from outside: 0 or 1, or None to let it float again.

    A button to ground is drive(pin, 0) while pressed, drive(pin, None)
    when released (the internal pull-up then reads 1)."""
    w = _wire(ident)
    before = w.level()
    w.ext = level
    _edge(w, before)


def level(ident):
    """The level on a pin, whoever drives it."""
    return _wire(ident).level()


def pwm_duty(ident):
    """The duty (0..65535) a PWM puts on the pin, or None if no PWM runs there."""
    w = _wire(ident)
    if w.pwm is None or not w.pwm.active:
        return None
    return w.pwm.effective_duty()


def reset_hardware():
    """Forget every pin, bus and device: a fresh, unpowered bench."""
    _wires.clear()
    _i2c_buses.clear()
    _spi_buses.clear()


# -- PWM -----------------------------------------------------------------


class PWM:
    def __init__(self, pin, *, freq=None, duty_u16=None, duty_ns=None, invert=False):
        self.wire = _wire(pin)
        old = self.wire.pwm
        if old is not None:
            old.active = False
        self._freq = 1000
        self._duty = 0
        self.init(freq=freq, duty_u16=duty_u16, duty_ns=duty_ns, invert=invert)

    def init(self, *, freq=None, duty_u16=None, duty_ns=None, invert=None):
        self.active = True
        self.wire.pwm = self
        if freq is not None:
            self.freq(freq)
        if duty_u16 is not None:
            self.duty_u16(duty_u16)
        if duty_ns is not None:
            self.duty_ns(duty_ns)
        if invert is not None:
            self._invert = bool(invert)

    def freq(self, f=None):
        if f is None:
            return self._freq
        if not 8 <= f <= 62_500_000:
            raise ValueError("freq out of range")
        self._freq = f
        return None

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        if not 0 <= d <= 65535:
            raise ValueError("duty out of range")
        self._duty = d
        return None

    def duty_ns(self, ns=None):
        period = 1_000_000_000 // self._freq
        if ns is None:
            return self._duty * period // 65535
        self._duty = min(65535, ns * 65535 // period)
        return None

    def deinit(self):
        self.active = False
        self._duty = 0

    def effective_duty(self):
        return 65535 - self._duty if self._invert else self._duty

    def level(self):
        """The pin as a slow meter sees it: high unless the duty is zero."""
        return self.effective_duty() > 0


# -- I2C -----------------------------------------------------------------

# RP2040 pin functions: SDA/SCL of each I2C block (datasheet, GPIO function table).
_I2C_SDA = ((0, 4, 8, 12, 16, 20, 24, 28), (2, 6, 10, 14, 18, 22, 26))
_I2C_SCL = ((1, 5, 9, 13, 17, 21, 25, 29), (3, 7, 11, 15, 19, 23, 27))
_I2C_DEFAULT = ((8, 9), (6, 7))  # (sda, scl) when none are given


class _I2CBus:
    def __init__(self, ident):
        self.id = ident
        self.devices = {}  # address -> model
        self.bytes_written = 0  # payload bytes, address bytes excluded
        self.transfers = 0
        self.freq = 0


_i2c_buses = {}


def i2c_bus(ident):
    """The bus behind I2C(ident): attach devices to it, read its counters."""
    return _one_per_ident(_i2c_buses, _I2CBus, ident)


def attach_i2c(ident, addr, device):
    i2c_bus(ident).devices[addr] = device
    return device


def detach_i2c(ident, addr):
    i2c_bus(ident).devices.pop(addr, None)


class I2C:
    def __init__(self, ident, *, scl=None, sda=None, freq=400_000, timeout=50_000):
        if ident not in (0, 1):
            raise ValueError("I2C(%r) doesn't exist" % (ident,))
        sda = _block_pin(sda, _I2C_DEFAULT[ident][0], _I2C_SDA[ident], "SDA")
        scl = _block_pin(scl, _I2C_DEFAULT[ident][1], _I2C_SCL[ident], "SCL")
        self.bus = i2c_bus(ident)
        self.bus.freq = freq
        self.sda = sda
        self.scl = scl

    def _device(self, addr):
        dev = self.bus.devices.get(addr)
        if dev is None:
            raise OSError(_EIO)
        return dev

    def scan(self):
        return sorted(self.bus.devices)

    # A device sees a write transfer as i2c_start() then i2c_write(chunk) for
    # each buffer; nothing here allocates, so a driver's show() can be run
    # under micropython.heap_lock() to prove it allocates nothing either.
    def writevto(self, addr, vector, stop=True):
        dev = self._device(addr)
        dev.i2c_start()
        n = 0
        for buf in vector:
            n += len(buf)
            dev.i2c_write(buf)
        self.bus.bytes_written += n
        self.bus.transfers += 1
        return n

    def writeto(self, addr, buf, stop=True):
        dev = self._device(addr)
        dev.i2c_start()
        dev.i2c_write(buf)
        self.bus.bytes_written += len(buf)
        self.bus.transfers += 1
        return len(buf)

    def readfrom(self, addr, nbytes, stop=True):
        return self._device(addr).i2c_read(nbytes)

    def readfrom_into(self, addr, buf, stop=True):
        data = self.readfrom(addr, len(buf))
        buf[:] = data


# -- SPI -----------------------------------------------------------------

_SPI_SCK = ((2, 6, 18, 22), (10, 14, 26))
_SPI_MOSI = ((3, 7, 19, 23), (11, 15, 27))
_SPI_MISO = ((0, 4, 16, 20), (8, 12, 28))
_SPI_DEFAULT = ((18, 19, 16), (10, 11, 8))  # (sck, mosi, miso)


class _SPIBus:
    def __init__(self, ident):
        self.id = ident
        self.devices = []  # models, each selected by its own chip-select wire
        self.bytes_written = 0
        self.baudrate = 0
        self.polarity = 0
        self.phase = 0


_spi_buses = {}


def spi_bus(ident):
    """The bus behind SPI(ident): attach devices to it, read its counters."""
    return _one_per_ident(_spi_buses, _SPIBus, ident)


def attach_spi(ident, device):
    """Put a device on the bus; it listens while level(device.cs) is 0."""
    spi_bus(ident).devices.append(device)
    return device


class SPI:
    MSB = const(0)
    LSB = const(1)

    def __init__(self, ident, baudrate=1_000_000, *, polarity=0, phase=0, bits=8,
                 firstbit=0, sck=None, mosi=None, miso=None):
        if ident not in (0, 1):
            raise ValueError("SPI(%r) doesn't exist" % (ident,))
        d = _SPI_DEFAULT[ident]
        _block_pin(sck, d[0], _SPI_SCK[ident], "SCK")
        _block_pin(mosi, d[1], _SPI_MOSI[ident], "MOSI")
        if miso is not None:
            _block_pin(miso, d[2], _SPI_MISO[ident], "MISO")
        self.bus = spi_bus(ident)
        self.init(baudrate, polarity=polarity, phase=phase, bits=bits, firstbit=firstbit)

    def init(self, baudrate=1_000_000, *, polarity=0, phase=0, bits=8, firstbit=0, **_):
        b = self.bus
        b.baudrate = baudrate
        b.polarity = polarity
        b.phase = phase
        if bits != 8 or firstbit != SPI.MSB:
            raise ValueError("only 8-bit MSB-first transfers are modelled")

    def deinit(self):
        pass

    def write(self, buf):
        b = self.bus
        b.bytes_written += len(buf)
        for dev in b.devices:
            if dev.cs is None or level(dev.cs) == 0:
                dev.spi_write(buf, b)

    def write_readinto(self, wbuf, rbuf):
        self.write(wbuf)
        for i in range(len(rbuf)):
            rbuf[i] = 0xFF  # nothing drives MISO


# -- the rest of `machine` that board files may touch --------------------

_freq = 125_000_000


def freq(hz=None):
    global _freq
    if hz is None:
        return _freq
    _freq = hz
    return None


def unique_id():
    return b"\xe6\x61\x38\x00\x00\x00\x00\x01"


def idle():
    pass
