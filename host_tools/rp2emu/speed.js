// How fast the emulated Pico runs the scoreboard, and a fingerprint of what it did.
//
//   node host_tools/rp2emu/speed.js --web build/web --board pico_oled [--presses 10] [--still MS]
//                                   [--kept FLASH.img] [--no-hotloops] [--plain-core]
//
// One board, in node, the way the page's Worker runs it but without the wall clock:
// a first boot on a blank flash to its first picture and a quiet moment, a second boot
// on the flash the first left, a still screen for 3 s, then OK and DOWN presses (each
// 300 ms of simulated time apart).  For each phase: simulated ms, real ms spent, and
// their ratio (the chip's speed while busy); after each, a digest of the chip's state
// (the core's registers, the SRAM, the flash, the clock).  The presses and their times
// are in simulated time, so two runs of the same emulator give the same digests:
// a change to the emulator that keeps them is exact on this run (the hot loops, say).
// --kept: the first boot's flash is kept in that file, and a later run starts from it.
// --no-hotloops: without hotloops.js; --plain-core: without fastcore.js and hotloops.js.
'use strict';

const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { Board } = require('./board');
const { FLASH_BYTES, loadUf2 } = require('./flash');
const { OledModel } = require('./ssd1306');
const { St7789Model } = require('./st7789');

function parse(argv) {
  const options = { web: 'build/web', board: 'pico_oled', presses: 10, hotloops: true, still: 3000 };
  for (let i = 2; i < argv.length; i++) {
    const name = argv[i];
    if (name === '--web') options.web = argv[++i];
    else if (name === '--board') options.board = argv[++i];
    else if (name === '--presses') options.presses = Number(argv[++i]);
    else if (name === '--still') options.still = Number(argv[++i]);
    else if (name === '--no-hotloops') options.hotloops = false;
    else if (name === '--plain-core') options.plainCore = true;
    else if (name === '--kept') options.kept = argv[++i];
    else throw new Error(`unknown option ${name}`);
  }
  return options;
}

function digest(board) {
  const mcu = board.mcu;
  const core = mcu.core;
  const hash = crypto.createHash('sha256');
  hash.update(Buffer.from(mcu.sram.buffer, mcu.sram.byteOffset, mcu.sram.byteLength));
  hash.update(Buffer.from(board.flash()));
  const registers = [...core.registers, core.PC, core.xPSR >>> 0, core.cycles, mcu.clock.nanos];
  hash.update(JSON.stringify(registers));
  return hash.digest('hex').slice(0, 16);
}

function cpuMs(before) {
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

function main() {
  const options = parse(process.argv);
  const config = JSON.parse(fs.readFileSync(path.join(options.web, 'config.json'), 'utf8'));
  const wiring = config.boards ? config.boards[options.board] : config[options.board];
  if (!wiring) throw new Error(`no board ${options.board} in config.json`);
  const bootrom = new Uint32Array(new Uint8Array(fs.readFileSync(path.join(options.web, 'rp2040-bootrom.bin'))).buffer);
  const uf2 = new Uint8Array(fs.readFileSync(path.join(options.web, wiring.uf2)));
  let display = null;
  let pictures = 0;
  let lastPicture = 0;
  let pressedAt = null;
  const answers = [];
  const listener = {
    i2c(micros, bytes) { display.write(bytes); },
    spi(micros, level, duty, bytes) { display.write(level, duty, bytes); },
    pictureDone(micros) {
      pictures++;
      lastPicture = micros;
      if (pressedAt !== null) {
        answers.push((micros - pressedAt) / 1000);
        pressedAt = null;
      }
    },
  };
  const makeBoard = (image) => {
    display = wiring.kind === 'oled' ? new OledModel(wiring.controller) : new St7789Model();
    const board = new Board({
      bootrom: bootrom.slice(), image, buttons: wiring.buttons,
      i2cAddress: wiring.kind === 'oled' ? wiring.address : -1,
      spiDataCommand: wiring.kind === 'oled' ? -1 : wiring.dc,
      spiChipSelect: wiring.kind === 'oled' ? -1 : wiring.cs,
      backlight: wiring.kind === 'oled' ? -1 : wiring.backlight, plainCore: options.plainCore,
      noHotLoops: !options.hotloops,
    }, listener);
    return board;
  };
  const phases = [];
  // runs to `untilMs` of simulated time, counting the real time spent
  const runTo = (board, name, untilMs) => {
    const began = performance.now();
    const cpuBefore = process.cpuUsage();
    const nanosBefore = board.nanos();
    while (board.nanos() < untilMs * 1e6) board.runUntil(untilMs * 1e6, 20000);
    const wall = performance.now() - began;
    const sim = (board.nanos() - nanosBefore) / 1e6;
    phases.push({ name, simMs: sim, wallMs: wall, cpuMs: cpuMs(cpuBefore), speed: sim / wall, digest: digest(board) });
  };
  const untilQuiet = (board, name) => {
    const began = performance.now();
    const cpuBefore = process.cpuUsage();
    const nanosBefore = board.nanos();
    let quietSince = board.nanos();
    let seen = pictures;
    for (;;) {
      board.runUntil(board.nanos() + 10e6, 1e9);
      if (pictures !== seen) {
        seen = pictures;
        quietSince = board.nanos();
      }
      if (pictures && board.nanos() - quietSince >= 300e6 && board.nanos() - lastPicture * 1000 >= 300e6) break;
    }
    const wall = performance.now() - began;
    const sim = (board.nanos() - nanosBefore) / 1e6;
    phases.push({ name, simMs: sim, wallMs: wall, cpuMs: cpuMs(cpuBefore), speed: sim / wall, pictures, digest: digest(board) });
  };

  const image = new Uint8Array(FLASH_BYTES).fill(0xff);
  loadUf2(uf2, image, wiring.uf2);
  let board;
  let kept;
  if (options.kept && fs.existsSync(options.kept)) kept = new Uint8Array(fs.readFileSync(options.kept));
  else {
    board = makeBoard(image);
    untilQuiet(board, 'first boot (blank flash) to a quiet screen');
    kept = Uint8Array.from(board.flash());
    if (options.kept) fs.writeFileSync(options.kept, kept);
  }
  board = makeBoard(kept);
  pictures = 0;
  untilQuiet(board, 'next boot (kept flash) to a quiet screen');
  const now = board.nanos() / 1e6;
  runTo(board, `still screen ${options.still} ms`, now + options.still);
  const [up, down, ok] = wiring.buttons; // UP, DOWN, OK, BACK
  let at = board.nanos() / 1e6 + 10;
  const press = (gpio, label) => {
    const pressMs = at;
    board.at(Math.round(pressMs * 1000), () => {
      board.setButton(gpio, true);
      if (gpio !== ok) pressedAt = Math.round(pressMs * 1000);
    });
    board.at(Math.round((pressMs + 80) * 1000), () => {
      board.setButton(gpio, false);
      if (gpio === ok) pressedAt = Math.round((pressMs + 80) * 1000);
    });
    at += 300;
    return label;
  };
  press(ok, 'OK');
  for (let i = 0; i < options.presses; i++) press(down, 'DOWN');
  const wallBefore = performance.now();
  runTo(board, `OK then ${options.presses} DOWN, 300 ms apart`, at + 200);
  const busy = phases[phases.length - 1];
  busy.answersMs = answers.map((x) => Math.round(x * 10) / 10);
  busy.wallPerPressMs = (performance.now() - wallBefore) / (options.presses + 1);
  runTo(board, `still screen ${options.still} ms after the presses`, board.nanos() / 1e6 + options.still);
  void up;
  process.stdout.write(`instructions the hot loops ran at once, last board: ${JSON.stringify([...board.hotCounts])}\n`);
  for (const phase of phases) {
    process.stdout.write(`${phase.name}: ${phase.simMs.toFixed(0)} ms simulated in ${phase.wallMs.toFixed(0)} ms`
      + ` (${(100 * phase.speed).toFixed(0)}% of real time; ${phase.cpuMs.toFixed(0)} ms of CPU) digest ${phase.digest}`
      + (phase.answersMs ? ` answers(sim ms) ${phase.answersMs.join(',')}` : '') + '\n');
  }
}

main();
