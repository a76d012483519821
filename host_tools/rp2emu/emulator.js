// An emulated Raspberry Pi Pico for the scoreboard's tests: the RP2040 of the npm
// package rp2040js, running a MicroPython UF2 from a flash image file.
//
//   node emulator.js --uf2 FILE --bootrom FILE --flash IMAGE [--port N]
//                    [--i2c-address 0x3c] [--spi-dc PIN --spi-cs PIN --backlight PIN]
//                    [--buttons 10,11,12,13]
//
// What rp2040js leaves out and this file adds:
//   * a NOR flash chip on the SSI (the chip the boot ROM's flash routines talk to), so
//     erase and program change the flash: littlefs can format and write;
//   * chip select through IO_QSPI's SS output override (the ROM forces it by hand);
//   * the USB CDC served on a local TCP port (pyserial's socket:// URL, so mpremote
//     connects unchanged), with the host's bytes queued until the device asks for them;
//   * a watchdog reboot (machine.reset()) that keeps the flash, as on a real board;
//   * the display buses: I2C writes to the given address and SPI bytes (with the D/C
//     level each byte was sent with) are reported to the controller process, one
//     line per transfer, and take the time the bus would take at its clock;
//   * button pins driven at exact simulated times, and power cuts in the middle of
//     a flash program or erase.
//
// The controlling process talks to us over stdin/stdout, one line per message
// (docs/rp2emu.md lists them).  Times are simulated microseconds since power-on.
// Facts about the chip come from the RP2040 datasheet (SSI, IO_QSPI, flash commands
// of the W25Q16JV) and from reading the boot ROM's program_flash_generic.c.
'use strict';

const fs = require('fs');
const net = require('net');
const readline = require('readline');
const { RP2040, USBCDC, ConsoleLogger, LogLevel, BasePeripheral } = require('rp2040js');

const FLASH_BYTES = 2 * 1024 * 1024; // the Pico's W25Q16JV
const FLASH_BASE = 0x10000000;
const PAGE_BYTES = 256;
const SECTOR_BYTES = 4096;
const CYCLE_NANOS = 1e9 / 125e6;
// How long the chip stays busy (W25Q16JV datasheet, typical): the firmware waits on
// the status register meanwhile, with interrupts off.
const PROGRAM_NANOS = 400e3;
const SECTOR_ERASE_NANOS = 45e6;
const BLOCK_32K_ERASE_NANOS = 120e6;
const BLOCK_64K_ERASE_NANOS = 150e6;

function parseArguments(argv) {
  const options = {
    uf2: null, bootrom: null, flash: null, port: 0, i2cAddress: -1,
    spiDataCommand: -1, spiChipSelect: -1, backlight: -1, buttons: [],
  };
  for (let i = 2; i < argv.length; i += 2) {
    const value = argv[i + 1];
    switch (argv[i]) {
      case '--uf2': options.uf2 = value; break;
      case '--bootrom': options.bootrom = value; break;
      case '--flash': options.flash = value; break;
      case '--port': options.port = Number(value); break;
      case '--i2c-address': options.i2cAddress = Number(value); break;
      case '--spi-dc': options.spiDataCommand = Number(value); break;
      case '--spi-cs': options.spiChipSelect = Number(value); break;
      case '--backlight': options.backlight = Number(value); break;
      case '--buttons': options.buttons = value.split(',').filter((s) => s).map(Number); break;
      default:
        process.stderr.write(`emulator: unknown option ${argv[i]}\n`);
        process.exit(2);
    }
  }
  if (!options.bootrom || !options.flash) {
    process.stderr.write('emulator: --bootrom and --flash are required\n');
    process.exit(2);
  }
  return options;
}

function send(line) {
  process.stdout.write(line + '\n');
}

function toHex(bytes) {
  return Buffer.from(bytes).toString('hex');
}

// ----------------------------------------------------------------- flash image

/** Copies the UF2's blocks into the flash array at their target addresses. */
function loadUf2(file, flash) {
  const data = fs.readFileSync(file);
  let blocks = 0;
  for (let offset = 0; offset + 512 <= data.length; offset += 512) {
    const magicStart0 = data.readUInt32LE(offset);
    const magicStart1 = data.readUInt32LE(offset + 4);
    const flags = data.readUInt32LE(offset + 8);
    const target = data.readUInt32LE(offset + 12);
    const size = data.readUInt32LE(offset + 16);
    const magicEnd = data.readUInt32LE(offset + 508);
    if (magicStart0 !== 0x0a324655 || magicStart1 !== 0x9e5d5157 || magicEnd !== 0x0ab16f30) {
      throw new Error(`${file}: block ${offset / 512} is not a UF2 block`);
    }
    if (flags & 1) continue; // "not main flash"
    const at = target - FLASH_BASE;
    if (at < 0 || at + size > FLASH_BYTES) {
      throw new Error(`${file}: block ${offset / 512} targets 0x${target.toString(16)}, outside the flash`);
    }
    flash.set(data.subarray(offset + 32, offset + 32 + size), at);
    blocks++;
  }
  if (!blocks) throw new Error(`${file}: no UF2 block for the flash`);
}

function saveImage(file, flash) {
  const temporary = file + '.tmp';
  fs.writeFileSync(temporary, flash.subarray(0, FLASH_BYTES));
  fs.renameSync(temporary, file);
}

// ----------------------------------------------------------------- NOR flash chip

/**
 * The flash chip behind the SSI, one command per chip-select period: write enable,
 * page program, sector and block erase, reads, status, JEDEC and unique id.  Program
 * and erase act when chip select rises, as on the chip.  A power cut can be armed to
 * strike during the n-th program or erase from now: that operation is done only up
 * to a fraction of its bytes, then the power goes.
 */
class NorFlash {
  constructor(flash, onPowerCut, nanos) {
    this.flash = flash;
    this.onPowerCut = onPowerCut;
    this.nanos = nanos; // the simulated clock
    this.busyUntil = 0;
    this.busyNanos = 0; // total time spent programming and erasing
    this.writeEnabled = false;
    this.command = -1;
    this.received = []; // bytes after the command byte, this transaction
    this.programs = 0;
    this.erases = 0;
    this.programmedBytes = 0;
    this.cutCountdown = -1; // operations left before the one that is cut
    this.cutFraction = 0.5;
    this.cutKind = 'any';
  }

  select() {
    this.command = -1;
    this.received.length = 0;
  }

  /** One byte in, one byte out (full duplex). */
  exchange(byte) {
    if (this.command < 0) {
      this.command = byte;
      if (byte === 0x06) this.writeEnabled = true;
      else if (byte === 0x04) this.writeEnabled = false;
      return 0xff;
    }
    const index = this.received.length;
    this.received.push(byte);
    switch (this.command) {
      case 0x05: // status 1: BUSY while a program or erase runs, WEL
        return (this.nanos() < this.busyUntil ? 0x01 : 0) | (this.writeEnabled ? 0x02 : 0);
      case 0x35: return 0x02; // status 2: quad enable set, so boot2 leaves it alone
      case 0x15: return 0x00;
      case 0x9f: return [0xef, 0x40, 0x15][index % 3]; // Winbond W25Q16JV
      case 0x4b: return index < 4 ? 0xff : 0xe6 + (index - 4); // unique id after 4 dummies
      case 0x03: return index < 3 ? 0xff : this.readAt(index - 3);
      case 0x0b: return index < 4 ? 0xff : this.readAt(index - 4);
      default: return 0xff;
    }
  }

  address() {
    const r = this.received;
    return ((r[0] << 16) | (r[1] << 8) | r[2]) % FLASH_BYTES;
  }

  readAt(offset) {
    return this.flash[(this.address() + offset) % FLASH_BYTES];
  }

  /** Chip select rose: program and erase take effect now. */
  deselect() {
    const command = this.command;
    this.command = -1;
    if (this.nanos() < this.busyUntil && command !== 0x05) {
      this.received.length = 0; // a busy chip ignores everything but the status read
      return;
    }
    if (command === 0x02 && this.received.length > 3) {
      if (this.writeEnabled) this.program(this.address(), this.received.slice(3));
      this.writeEnabled = false;
    } else if ((command === 0x20 || command === 0x52 || command === 0xd8) && this.received.length >= 3) {
      if (this.writeEnabled) {
        const size = command === 0x20 ? SECTOR_BYTES : command === 0x52 ? 32768 : 65536;
        this.erase(this.address() - (this.address() % size), size);
      }
      this.writeEnabled = false;
    } else if (command === 0x60 || command === 0xc7) {
      this.writeEnabled = false; // chip erase: never sent by the firmware, refused here
    }
    this.received.length = 0;
  }

  busy(nanos) {
    this.busyUntil = this.nanos() + nanos;
    this.busyNanos += nanos;
  }

  /** Is this operation (a 'program' or an 'erase') the one the armed power cut strikes? */
  strikes(kind) {
    if (this.cutCountdown < 0) return false;
    if (this.cutKind !== 'any' && this.cutKind !== kind) return false;
    if (this.cutCountdown === 0) return true;
    this.cutCountdown--;
    return false;
  }

  program(address, data) {
    this.programs++;
    const cut = this.strikes('program');
    const count = cut ? Math.floor(data.length * this.cutFraction) : data.length;
    const page = address - (address % PAGE_BYTES);
    for (let i = 0; i < count; i++) {
      const at = page + (((address % PAGE_BYTES) + i) % PAGE_BYTES); // wraps in the page
      this.flash[at] &= data[i]; // programming only clears bits
    }
    this.programmedBytes += count;
    this.busy(PROGRAM_NANOS);
    if (cut) this.onPowerCut(`program of ${data.length} bytes at 0x${address.toString(16)} cut after ${count}`);
  }

  erase(address, size) {
    this.erases++;
    const cut = this.strikes('erase');
    const count = cut ? Math.floor(size * this.cutFraction) : size;
    this.flash.fill(0xff, address, address + count);
    this.busy(size === SECTOR_BYTES ? SECTOR_ERASE_NANOS : size === 32768 ? BLOCK_32K_ERASE_NANOS : BLOCK_64K_ERASE_NANOS);
    if (cut) this.onPowerCut(`erase of ${size} bytes at 0x${address.toString(16)} cut after ${count}`);
  }
}

/** The SSI as the flash routines use it: a byte written to DR0 is a byte exchanged. */
class FlashSsi extends BasePeripheral {
  constructor(rp2040, chip, chipSelect) {
    super(rp2040, 'SSI');
    this.chip = chip;
    this.chipSelect = chipSelect;
    this.registers = new Map();
    this.received = [];
    this.inTransfer = false; // for chip select driven by the SSI itself
  }

  readUint32(offset) {
    switch (offset) {
      case 0x20: return 0; // TXFLR: sent at once
      case 0x24: return this.received.length; // RXFLR
      case 0x28: // SR: transmit FIFO empty and not full, receive FIFO not empty when so
        if (!this.chipSelect.forced && this.inTransfer) {
          // The SSI raises its own chip select once its FIFO ran empty; code
          // polls SR only after it has queued the whole command.
          this.inTransfer = false;
          this.chip.deselect();
        }
        return 0x06 | (this.received.length ? 0x08 : 0);
      case 0x58: return 0x51535049; // IDR
      case 0x5c: return 0x3430312a; // SSI_COMP_VERSION
      case 0x60: return this.received.length ? this.received.shift() : 0;
      default: return this.registers.get(offset) || 0;
    }
  }

  writeUint32(offset, value) {
    if (offset === 0x60) {
      if (!this.chipSelect.forced && !this.inTransfer) {
        this.inTransfer = true;
        this.chip.select();
      }
      this.received.push(this.chipSelect.low() ? this.chip.exchange(value & 0xff) : 0xff);
      if (this.received.length > 64) this.received.shift();
      return;
    }
    if (offset === 0x08 && !(value & 1)) { // SSIENR cleared: FIFOs flushed, transfer over
      this.received.length = 0;
      if (this.inTransfer) {
        this.inTransfer = false;
        this.chip.deselect();
      }
    }
    this.registers.set(offset, value);
  }
}

/** IO_QSPI: the flash pins' controls; only the SS output override matters here. */
class QspiPins extends BasePeripheral {
  constructor(rp2040, chip) {
    super(rp2040, 'IO_QSPI');
    this.chip = chip;
    this.controls = new Uint32Array(6);
    this.forced = false;
    this.forcedLow = false;
  }

  low() {
    return this.forced ? this.forcedLow : true;
  }

  readUint32(offset) {
    if (offset < 0x30) {
      if (offset & 4) return this.controls[offset >> 3]; // CTRL
      // STATUS: SS reads high from its pad (the BOOTSEL button is not pressed)
      return offset === 0x08 && !(this.forced && this.forcedLow) ? 1 << 17 : 0;
    }
    return 0; // INTR and friends: no edge ever seen (the ROM reads it to detect an abort)
  }

  writeUint32(offset, value) {
    if (offset >= 0x30 || !(offset & 4)) return;
    this.controls[offset >> 3] = value;
    if (offset === 0x0c) { // GPIO_QSPI_SS_CTRL
      const override = (value >> 8) & 3;
      const wasForcedLow = this.forced && this.forcedLow;
      this.forced = override === 2 || override === 3;
      this.forcedLow = override === 2;
      const isForcedLow = this.forced && this.forcedLow;
      if (isForcedLow && !wasForcedLow) this.chip.select();
      else if (wasForcedLow && !isForcedLow) this.chip.deselect();
    }
  }
}

/**
 * VREG_AND_CHIP_RESET: plain registers.  rp2040js leaves the block unimplemented and
 * reads it as all ones, so the boot ROM would see CHIP_RESET.PSM_RESTART_FLAG (a
 * debugger asking for rescue mode) and halt; after power-on it reads zero.
 */
class ChipResetRegisters extends BasePeripheral {
  constructor(rp2040) {
    super(rp2040, 'VREG_AND_CHIP_RESET');
    this.values = new Map();
  }

  readUint32(offset) {
    return this.values.get(offset) || 0;
  }

  writeUint32(offset, value) {
    this.values.set(offset, value);
  }
}

// ----------------------------------------------------------------- the board

class Board {
  constructor(options) {
    this.options = options;
    this.bootrom = new Uint32Array(new Uint8Array(fs.readFileSync(options.bootrom)).buffer);
    this.image = new Uint8Array(FLASH_BYTES).fill(0xff);
    if (fs.existsSync(options.flash)) {
      const stored = fs.readFileSync(options.flash);
      this.image.set(stored.subarray(0, FLASH_BYTES));
    }
    if (options.uf2) loadUf2(options.uf2, this.image);
    this.hostBytes = []; // from the TCP client, waiting for the device to read them
    this.pendingRead = null; // the device's OUT endpoint read, when nothing was there
    this.client = null;
    this.poweredOff = false;
    this.paused = false;
    this.boots = 0;
    this.cutArmed = null;
    this.statistics = { programs: 0, erases: 0, programmedBytes: 0 };
    this.marks = new Map(); // id -> simulated micros, for the marks still to come
    this.powerOn();
  }

  powerOn() {
    const mcu = new RP2040();
    mcu.logger = new ConsoleLogger(LogLevel.Error);
    mcu.loadBootrom(this.bootrom); // resets, which erases rp2040js's flash array
    mcu.flash.set(this.image);
    this.image = null;
    const chip = new NorFlash(mcu.flash, (what) => this.powerCut(what), () => mcu.clock.nanos);
    if (this.cutArmed) {
      chip.cutCountdown = this.cutArmed.countdown;
      chip.cutFraction = this.cutArmed.fraction;
      this.cutArmed = null;
    }
    const pins = new QspiPins(mcu, chip);
    mcu.peripherals[0x18000] = new FlashSsi(mcu, chip, pins);
    mcu.peripherals[0x40018] = pins;
    mcu.peripherals[0x40064] = new ChipResetRegisters(mcu);
    mcu.peripherals[0x40058].onWatchdogTrigger = () => this.reboot();
    this.mcu = mcu;
    this.chip = chip;
    // The QSPI pads come out of reset with their inputs enabled (datasheet, PADS_QSPI);
    // rp2040js starts them disabled.  The boot ROM samples CS: high means no BOOTSEL.
    for (const pin of mcu.qspi) pin.padValue |= 0x40;
    mcu.qspi[1].setInputValue(true); // flash CS pulled up: the BOOTSEL button is not pressed
    for (const pin of this.options.buttons) mcu.gpio[pin].setInputValue(true); // pulled up
    this.attachUsb();
    this.attachI2c();
    this.attachSpi();
    mcu.core.reset(); // from the boot ROM's reset vector
    this.boots++;
  }

  nanos() {
    return this.mcu.clock.nanos;
  }

  micros() {
    return Math.floor(this.mcu.clock.nanos / 1000);
  }

  /** Runs the core for about `budget` instructions (less if the power goes). */
  run(budget) {
    const mcu = this.mcu;
    const clock = mcu.clock;
    const core = mcu.core;
    for (let i = 0; i < budget && !this.poweredOff && this.mcu === mcu; i++) {
      if (core.waiting) {
        const wait = clock.nanosToNextAlarm;
        clock.tick(wait);
        i += wait / CYCLE_NANOS;
      } else {
        clock.tick(core.executeInstruction() * CYCLE_NANOS);
      }
    }
  }

  at(micros, action) {
    const delay = Math.max(0, micros * 1000 - this.nanos());
    this.mcu.clock.createAlarm(action).schedule(delay);
  }

  /** Says "M ID MICROS" once simulated time gets to micros. */
  mark(micros, id) {
    this.marks.set(id, micros);
    this.at(micros, () => {
      if (this.marks.delete(id)) send(`M ${id} ${this.micros()}`);
    });
  }

  // -- USB CDC on a TCP port
  attachUsb() {
    const cdc = new USBCDC(this.mcu.usbCtrl);
    const usb = this.mcu.usbCtrl;
    const cdcRead = usb.onEndpointRead;
    usb.onEndpointRead = (endpoint, size) => {
      if (endpoint !== cdc.outEndpoint) {
        cdcRead(endpoint, size);
        return;
      }
      if (!this.hostBytes.length) {
        this.pendingRead = { endpoint, size }; // answered when the host sends something
        return;
      }
      this.deliver(endpoint, size);
    };
    cdc.onDeviceConnected = () => send(`U ${this.micros()}`);
    cdc.onSerialData = (buffer) => {
      if (this.client) this.client.write(Buffer.from(buffer));
    };
    this.cdc = cdc;
    this.pendingRead = null;
  }

  deliver(endpoint, size) {
    const count = Math.min(size, this.hostBytes.length);
    const buffer = Uint8Array.from(this.hostBytes.splice(0, count));
    this.mcu.usbCtrl.endpointReadDone(endpoint, buffer);
  }

  fromHost(data) {
    for (const byte of data) this.hostBytes.push(byte);
    if (this.pendingRead) {
      const { endpoint, size } = this.pendingRead;
      this.pendingRead = null;
      this.deliver(endpoint, size);
    }
  }

  // -- displays
  attachI2c() {
    const address = this.options.i2cAddress;
    for (const bus of this.mcu.i2c) {
      let transfer = null;
      const flushTransfer = () => {
        if (transfer && transfer.length) send(`I ${this.micros()} ${toHex(transfer)}`);
        transfer = null;
      };
      const byteNanos = () => { // 8 bits and the ACK at SCL's period, counted in clk_sys cycles
        const period = bus.sclLowPeriod + bus.sclHighPeriod;
        return period > 0 ? (9 * period * 1e9) / this.mcu.clkSys : 22500;
      };
      bus.onStart = () => {
        flushTransfer();
        bus.completeStart();
      };
      bus.onConnect = (target, mode) => {
        const ack = target === address;
        if (ack && mode === 0) transfer = [];
        this.after(byteNanos(), () => bus.completeConnect(ack));
      };
      bus.onWriteByte = (value) => {
        if (transfer) transfer.push(value);
        this.after(byteNanos(), () => bus.completeWrite(transfer !== null));
      };
      bus.onReadByte = () => this.after(byteNanos(), () => bus.completeRead(0));
      bus.onStop = () => {
        flushTransfer();
        bus.completeStop();
      };
    }
  }

  after(nanos, action) {
    this.mcu.clock.createAlarm(action).schedule(nanos);
  }

  attachSpi() {
    const { spiDataCommand, spiChipSelect } = this.options;
    if (spiDataCommand < 0) return;
    for (const bus of this.mcu.spi) {
      let level = -1;
      let bytes = [];
      let started = 0;
      const flushBytes = () => {
        if (bytes.length) send(`S ${started} ${level} ${this.backlightDuty()} ${toHex(bytes)}`);
        bytes = [];
      };
      this.flushSpi = flushBytes;
      bus.onTransmit = (value) => {
        const gpio = this.mcu.gpio;
        const selected = spiChipSelect < 0 || !gpio[spiChipSelect].outputValue;
        if (selected) {
          const dataCommand = gpio[spiDataCommand].outputValue ? 1 : 0;
          if (dataCommand !== level || bytes.length >= 16384) {
            flushBytes();
            level = dataCommand;
            started = this.micros();
          }
          bytes.push(value & 0xff);
        }
        const frequency = bus.clockFrequency || 1e6;
        this.after((8 * 1e9) / frequency, () => {
          bus.completeTransmit(0);
          if (bus.txFIFO.empty && bytes.length) flushBytes();
        });
      };
    }
  }

  /** Duty 0..65535 on the backlight pin's PWM output, or -1 when no PWM drives it. */
  backlightDuty() {
    const pin = this.options.backlight;
    if (pin < 0) return -1;
    const gpio = this.mcu.gpio[pin];
    if (gpio.functionSelect !== 4) return gpio.outputValue ? 65535 : 0;
    const channel = this.mcu.pwm.channels[(pin >> 1) & 7];
    if (!(channel.csr & 1)) return 0;
    const b = pin & 1;
    const compare = b ? channel.cc >>> 16 : channel.cc & 0xffff;
    let duty = Math.min(65535, Math.round((compare * 65535) / (channel.top + 1)));
    if (channel.csr & (b ? 8 : 4)) duty = 65535 - duty;
    return duty;
  }

  // -- power
  reboot() {
    // machine.reset(): the watchdog resets the chip; the flash keeps its content.
    this.image = Uint8Array.from(this.mcu.flash.subarray(0, FLASH_BYTES));
    this.saveStatistics();
    this.pendingRead = null;
    this.hostBytes.length = 0;
    if (this.client) this.client.destroy(); // the USB device goes away, as on a real board
    this.client = null;
    const micros = this.micros();
    this.powerOn();
    // The new chip's clock starts at zero and the old clock's alarms are gone with it: a
    // mark still to come is kept, as far ahead on the new clock (the controller may be
    // waiting for it across the reboot, e.g. after mpremote's delayed reset).
    const pending = [...this.marks];
    this.marks.clear();
    for (const [id, at] of pending) this.mark(Math.max(0, at - micros), id);
    send(`R ${micros}`);
  }

  saveStatistics() {
    this.statistics.programs += this.chip.programs;
    this.statistics.erases += this.chip.erases;
    this.statistics.programmedBytes += this.chip.programmedBytes;
  }

  powerCut(what) {
    if (this.poweredOff) return;
    this.poweredOff = true;
    saveImage(this.options.flash, this.mcu.flash);
    send(`X ${this.micros()} ${what}`);
    process.exit(0);
  }
}

// ----------------------------------------------------------------- main

function main() {
  const options = parseArguments(process.argv);
  let board;
  try {
    board = new Board(options);
  } catch (error) {
    process.stderr.write(`emulator: ${error.message}\n`);
    process.exit(2);
  }

  const server = net.createServer((socket) => {
    if (board.client) board.client.destroy(); // one serial terminal at a time
    board.client = socket;
    socket.setNoDelay(true);
    socket.on('data', (data) => board.fromHost(data));
    socket.on('close', () => {
      if (board.client === socket) board.client = null;
    });
    socket.on('error', () => {});
  });
  server.listen(options.port, '127.0.0.1', () => send(`P ${server.address().port}`));

  const commands = readline.createInterface({ input: process.stdin });
  commands.on('line', (line) => {
    const words = line.trim().split(/\s+/);
    switch (words[0]) {
      case 'pin': { // pin MICROS GPIO LEVEL: drive an input at that simulated time
        const [micros, gpio, level] = words.slice(1).map(Number);
        if (micros * 1000 < board.nanos()) {
          send(`E pin ${gpio} at ${micros} us is in the past (now ${board.micros()} us)`);
        }
        board.at(micros, () => board.mcu.gpio[gpio].setInputValue(level !== 0));
        break;
      }
      case 'pause': // the core stops (time with it) until `resume`: for scheduling without a race
        board.paused = true;
        break;
      case 'resume':
        board.paused = false;
        break;
      case 'mark': { // mark MICROS ID: say "M ID MICROS" once simulated time gets there
        board.mark(Number(words[1]), words[2]);
        break;
      }
      case 'time':
        send(`T ${board.micros()}`);
        break;
      case 'cut': // cut N KIND FRACTION: the power goes during the N-th (from 0) flash
        // operation of KIND (program, erase or any) from now, once FRACTION of it is done
        board.chip.cutCountdown = Number(words[1]);
        board.chip.cutKind = words[2] || 'any';
        board.chip.cutFraction = Number(words[3] || 0.5);
        break;
      case 'flash': // F programs erases programmed-bytes, since this process started
        board.saveStatistics();
        send(`F ${board.statistics.programs} ${board.statistics.erases} ${board.statistics.programmedBytes}`);
        board.statistics = { programs: 0, erases: 0, programmedBytes: 0 };
        board.chip.programs = board.chip.erases = board.chip.programmedBytes = 0;
        break;
      case 'off': // power off now; the flash image keeps what was written
        board.poweredOff = true;
        saveImage(options.flash, board.mcu.flash);
        send(`X ${board.micros()} off`);
        process.exit(0);
        break;
      case '':
        break;
      default:
        process.stderr.write(`emulator: unknown command ${words[0]}\n`);
    }
  });
  commands.on('close', () => {
    if (!board.poweredOff) {
      board.poweredOff = true;
      saveImage(options.flash, board.mcu.flash);
    }
    process.exit(0);
  });

  const step = () => {
    if (board.poweredOff) return;
    if (board.paused) {
      setTimeout(step, 1);
      return;
    }
    board.run(100000);
    setImmediate(step);
  };
  setImmediate(step);
}

if (require.main === module) main();

module.exports = { NorFlash, loadUf2, FLASH_BYTES };
