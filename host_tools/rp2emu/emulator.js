// An emulated Raspberry Pi Pico for the scoreboard's tests: the RP2040 of the npm
// package rp2040js, running a MicroPython UF2 from a flash image file.
//
//   node emulator.js --uf2 FILE --bootrom FILE --flash IMAGE [--port N]
//                    [--i2c-address 0x3c] [--spi-dc PIN --spi-cs PIN --backlight PIN]
//                    [--buttons 10,11,12,13]
//
// What rp2040js leaves out and this emulator adds:
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
// The chip, its flash and the buses live in board.js, flash.js and buttons.js (shared
// with the web page's Worker); this file is their node front: files, the TCP port and
// the line protocol.
'use strict';

const fs = require('fs');
const net = require('net');
const readline = require('readline');
const { FLASH_BYTES, loadUf2 } = require('./flash');
const { Board } = require('./board');

const PACE = 10; // a sleeping chip's simulated time goes at most this much faster than real time
const LAG_KEPT_NANOS = 100e6; // a busy chip this far behind the pace: the pace starts again from it

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

function saveImage(file, flash) {
  const temporary = file + '.tmp';
  fs.writeFileSync(temporary, flash.subarray(0, FLASH_BYTES));
  fs.renameSync(temporary, file);
}

/** The board of these options: the image file (if any) with the UF2 over it. */
function boardFromFiles(options, listener) {
  const bootrom = new Uint32Array(new Uint8Array(fs.readFileSync(options.bootrom)).buffer);
  const image = new Uint8Array(FLASH_BYTES).fill(0xff);
  if (fs.existsSync(options.flash)) {
    const stored = fs.readFileSync(options.flash);
    image.set(stored.subarray(0, FLASH_BYTES));
  }
  if (options.uf2) loadUf2(new Uint8Array(fs.readFileSync(options.uf2)), image, options.uf2);
  return new Board({
    bootrom, image, buttons: options.buttons, i2cAddress: options.i2cAddress,
    spiDataCommand: options.spiDataCommand, spiChipSelect: options.spiChipSelect, backlight: options.backlight,
  }, listener);
}

// ----------------------------------------------------------------- main

function main() {
  const options = parseArguments(process.argv);
  let client = null; // the TCP connection standing for the USB host
  let board;
  const listener = {
    usbConnected: (micros) => send(`U ${micros}`),
    serial: (bytes) => {
      if (client) client.write(Buffer.from(bytes));
    },
    i2c: (micros, bytes) => send(`I ${micros} ${toHex(bytes)}`),
    spi: (micros, level, duty, bytes) => send(`S ${micros} ${level} ${duty} ${toHex(bytes)}`),
    mark: (id, micros) => send(`M ${id} ${micros}`),
    reboot: (micros) => {
      if (client) client.destroy(); // the USB device went away, as on a real board
      client = null;
      send(`R ${micros}`);
    },
    powerCut: (micros, what) => {
      saveImage(options.flash, board.mcu.flash);
      send(`X ${micros} ${what}`);
      process.exit(0);
    },
  };
  try {
    board = boardFromFiles(options, listener);
  } catch (error) {
    process.stderr.write(`emulator: ${error.message}\n`);
    process.exit(2);
  }

  const server = net.createServer((socket) => {
    if (client) client.destroy(); // one serial terminal at a time
    client = socket;
    socket.setNoDelay(true);
    socket.on('data', (data) => board.fromHost(data));
    socket.on('close', () => {
      if (client === socket) client = null;
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
      case 'flash': { // F programs erases programmed-bytes, since this process started
        const taken = board.takeStatistics();
        send(`F ${taken.programs} ${taken.erases} ${taken.programmedBytes}`);
        break;
      }
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

  // A sleeping chip's simulated time runs at most PACE times faster than real time: the
  // app sleeps up to a second between polls on a still screen, and unpaced a sleeping
  // chip went through seconds of simulated time while the host looked once (a host that
  // waits for a quiet moment after a picture sampled it too coarsely to see it).  A busy
  // chip is slower than real time and never held back; what it lags is not banked.
  let pace = null; // {real, nanos, mcu}: the moment simulated time was tied to real time
  const step = () => {
    if (board.poweredOff) return;
    const real = performance.now();
    if (board.paused || !pace || pace.mcu !== board.mcu) pace = { real, nanos: board.nanos(), mcu: board.mcu };
    if (board.paused) {
      setTimeout(step, 1);
      return;
    }
    const bound = pace.nanos + (real - pace.real) * 1e6 * PACE;
    if (board.nanos() >= bound) {
      setTimeout(step, 1);
      return;
    }
    board.run(100000);
    if (bound - board.nanos() > LAG_KEPT_NANOS) pace = { real: performance.now(), nanos: board.nanos(), mcu: board.mcu };
    setImmediate(step);
  };
  setImmediate(step);
}

if (require.main === module) main();

module.exports = { boardFromFiles };
