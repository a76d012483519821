// The emulated Pico in the page's Web Worker: the RP2040 (rp2040js) running the
// scoreboard's one-file UF2, with the board's flash, display controller and buttons
// (host_tools/rp2emu/), so the page shows what a real board would.
//
// Time: the chip's simulated clock follows the wall clock and never runs ahead of it;
// when the emulation is slower than real time (a busy app), the lost time is dropped.
// A button edge keeps the real time since the previous edge, in simulated time, so a
// press held 700 ms is held 700 ms on the chip whatever the emulation's speed.
//
// Messages in:  start {board, bootrom, uf2, sectors, settings}, button {gpio, pressed, at},
//               exec {id, code}, idle {id}, stats {id}
// Messages out: frame {kind, data, brightness}, flash {sectors}, booted, done {id, ...},
//               failed {message}
'use strict';

const { Board } = require('../../rp2emu/board');
const { FLASH_BYTES, SECTOR_BYTES, loadUf2 } = require('../../rp2emu/flash');
const { OledModel } = require('../../rp2emu/ssd1306');
const { St7789Model } = require('../../rp2emu/st7789');
const { RawRepl } = require('./raw_repl');

const SLICE_MS = 12; // emulation per turn of the Worker's event loop, at most
const SLOWEST_STEP_MS = 250; // simulated time dropped when the emulation lags more than this
const MIN_PRESS_MS = 50; // a tap on a touch screen still holds the button this long
const MIN_GAP_MS = 40; // and lets it go this long before the next press
const FRAME_MS = 16; // at most one picture per display refresh,
// once the bus has been quiet this long (simulated): the picture is whole (a driver sends
// it in bands and runs of rows, with its own work in between; the app polls every 10 ms)
const FRAME_QUIET_US = 10000;
const FRAME_LONGEST_MS = 100; // or this often during a long transfer
const SAVE_AFTER_MS = 150; // the flash is saved once the device stopped writing this long
const QUIET_MS = 300; // idle: no edge to come and no display traffic for this long (simulated)

let board = null;
let display = null;
let frameDue = false;
let lastFramePost = 0;
let lastPictureMicros = 0;
let lastPixelMicros = -1e12; // the latest transfer of pixels (not commands)
let pictures = 0;
let dirty = new Set(); // sectors the device wrote since the last save
let lastWriteWall = 0;
let repl = null;
let pacing = null; // {wall, nanos}: the moment simulated time was tied to the wall clock
const edges = { lastMicros: -1e12, pending: 0, pressedAt: new Map(), unanswered: null };
let answered = []; // wall times of the edges the pictures since the last frame posted answered
const speed = { busyWall: 0, busyNanos: 0 };
const waiters = []; // idle() promises: {id, resolve}

function wallNow() {
  return performance.timeOrigin + performance.now();
}

const listener = {
  i2c(micros, bytes) {
    display.write(bytes);
    picture(micros, bytes.length);
  },
  spi(micros, level, duty, bytes) {
    display.write(level, duty, bytes);
    picture(micros, level ? bytes.length : 0);
  },
  serial(bytes) {
    if (repl) repl.received(bytes);
  },
  flashWrite(address, bytes) {
    for (let at = address - (address % SECTOR_BYTES); at < address + bytes; at += SECTOR_BYTES) {
      dirty.add(at / SECTOR_BYTES);
    }
    lastWriteWall = wallNow();
  },
  reboot() {
    // the new chip's clock starts at zero, and the old clock's alarms went with it
    if (repl) repl.reset();
    pictures = 0;
    lastPictureMicros = 0;
    lastPixelMicros = -1e12;
    edges.pending = 0;
    edges.lastMicros = -1e12;
    edges.pressedAt.clear();
    pacing = { wall: wallNow(), nanos: 0 };
  },
};

/**
 * Display traffic: a transfer of pixels after a quiet bus starts a picture, and that
 * picture answers the latest edge applied before it (the press that moved the cursor,
 * the release that confirmed); it is posted once the bus is quiet again.
 */
function picture(micros, pixelBytes) {
  frameDue = true;
  lastPictureMicros = micros;
  if (pixelBytes < 64) return;
  pictures++;
  if (micros - lastPixelMicros > FRAME_QUIET_US && edges.unanswered !== null) {
    answered.push(edges.unanswered);
    edges.unanswered = null;
  }
  lastPixelMicros = micros;
}

function start(message) {
  const wiring = message.board;
  const image = new Uint8Array(FLASH_BYTES).fill(0xff);
  for (const [index, bytes] of message.sectors) image.set(bytes, index * SECTOR_BYTES);
  loadUf2(new Uint8Array(message.uf2), image, wiring.uf2);
  display = wiring.kind === 'oled' ? new OledModel(wiring.controller) : new St7789Model();
  board = new Board({
    bootrom: new Uint32Array(message.bootrom),
    image,
    buttons: wiring.buttons,
    i2cAddress: wiring.kind === 'oled' ? wiring.address : -1,
    spiDataCommand: wiring.kind === 'oled' ? -1 : wiring.dc,
    spiChipSelect: wiring.kind === 'oled' ? -1 : wiring.cs,
    backlight: wiring.kind === 'oled' ? -1 : wiring.backlight,
  }, listener);
  repl = new RawRepl((bytes) => board.fromHost(bytes));
  pacing = { wall: wallNow(), nanos: board.nanos() };
  postMessage({ type: 'booted' });
  turn();
}

/** One turn: emulate up to the wall clock (or SLICE_MS of work), then let messages in. */
function turn() {
  const began = performance.now();
  const nanosBefore = board.nanos();
  let caughtUp = false;
  while (performance.now() - began < SLICE_MS) {
    const target = pacing.nanos + (wallNow() - pacing.wall) * 1e6;
    if (board.nanos() >= target) {
      caughtUp = true;
      break;
    }
    board.runUntil(target, 20000);
  }
  const spent = performance.now() - began;
  if (!caughtUp) {
    speed.busyWall += spent;
    speed.busyNanos += board.nanos() - nanosBefore;
    const lag = pacing.nanos + (wallNow() - pacing.wall) * 1e6 - board.nanos();
    if (lag > SLOWEST_STEP_MS * 1e6) pacing = { wall: wallNow(), nanos: board.nanos() };
  }
  postFrame();
  saveIfQuiet();
  answerIdle();
  if (caughtUp) setTimeout(turn, 4);
  else next();
}

// a zero-delay turn of the event loop (setTimeout would wait 4 ms once nested)
const channel = new MessageChannel();
channel.port1.onmessage = turn;
function next() {
  channel.port2.postMessage(0);
}

function postFrame() {
  if (!frameDue) return;
  const sinceWall = performance.now() - lastFramePost;
  if (sinceWall < FRAME_MS) return;
  if (board.micros() - lastPictureMicros < FRAME_QUIET_US && sinceWall < FRAME_LONGEST_MS) return;
  frameDue = false;
  lastFramePost = performance.now();
  const data = display.frame();
  postMessage({ type: 'frame', kind: display instanceof OledModel ? 'mono' : 'rgb565', data,
    brightness: display.brightness(), pictures, answered }, [data.buffer]);
  answered = [];
}

function saveIfQuiet() {
  if (!dirty.size || wallNow() - lastWriteWall < SAVE_AFTER_MS) return;
  const flash = board.flash();
  const sectors = [...dirty].sort((a, b) => a - b).map(
    (index) => [index, flash.slice(index * SECTOR_BYTES, (index + 1) * SECTOR_BYTES)]);
  dirty = new Set();
  postMessage({ type: 'flash', sectors }, sectors.map((sector) => sector[1].buffer));
}

function isIdle() {
  const micros = board.micros();
  return edges.pending === 0 && micros - lastPictureMicros >= QUIET_MS * 1000
    && micros - edges.lastMicros >= QUIET_MS * 1000 && !dirty.size && !frameDue;
}

function answerIdle() {
  if (!waiters.length || !isIdle()) return;
  for (const waiter of waiters.splice(0)) waiter();
}

function whenIdle() {
  return new Promise((resolve) => waiters.push(resolve));
}

/**
 * A button edge at the wall time `at` (ms since the epoch).  A press comes at once (after
 * the previous edge, and MIN_GAP_MS after a release); a release keeps the real length
 * of its press in simulated time (at least MIN_PRESS_MS), so a hold means on the chip
 * what it meant to the finger, however slow the emulation is just then.
 */
function button(gpio, pressed, at) {
  let micros = board.micros() + 1000;
  if (pressed) {
    micros = Math.max(micros, edges.lastMicros + MIN_GAP_MS * 1000);
    edges.pressedAt.set(gpio, { micros, wall: at });
  } else {
    const press = edges.pressedAt.get(gpio);
    edges.pressedAt.delete(gpio);
    if (press) {
      const held = Math.max(MIN_PRESS_MS, at - press.wall);
      micros = Math.max(micros, press.micros + Math.round(held * 1000));
    }
  }
  micros = Math.max(micros, edges.lastMicros + 1000); // in order
  edges.lastMicros = micros;
  edges.pending++;
  const chip = board.mcu;
  board.at(micros, () => {
    edges.pending--;
    if (board.mcu !== chip) return;
    board.setButton(gpio, pressed);
    edges.unanswered = at; // the picture that follows is this edge's answer
  });
}

function statistics() {
  return {
    speed: speed.busyWall ? speed.busyNanos / 1e6 / speed.busyWall : null,
    simulatedMs: board.nanos() / 1e6,
    pictures,
    boots: board.boots,
  };
}

async function execute(id, code, leaveRunning) {
  try {
    await whenIdle();
    const { out, err } = await repl.exec(code, leaveRunning);
    postMessage({ type: 'done', id, out, err });
  } catch (error) {
    postMessage({ type: 'done', id, err: String(error && error.message || error) });
  }
}

onmessage = (event) => {
  const message = event.data;
  try {
    if (message.type === 'start') start(message);
    else if (message.type === 'button') button(message.gpio, message.pressed, message.at);
    else if (message.type === 'exec') execute(message.id, message.code, message.leaveRunning);
    else if (message.type === 'flush') {
      lastWriteWall = 0;
      saveIfQuiet();
      postMessage({ type: 'done', id: message.id });
    }
    else if (message.type === 'idle') whenIdle().then(() => postMessage({ type: 'done', id: message.id }));
    else if (message.type === 'stats') postMessage({ type: 'done', id: message.id, stats: statistics() });
  } catch (error) {
    postMessage({ type: 'failed', message: String(error && error.stack || error) });
  }
};
