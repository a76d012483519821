// The emulated Pico in the page's Web Worker: the RP2040 (rp2040js) running the
// scoreboard's one-file UF2, with the board's flash, display controller and buttons
// (host_tools/rp2emu/), so the page shows what a real board would.
//
// Time: the chip's simulated clock follows the wall clock and never runs ahead of it;
// when the emulation is slower than real time (a busy app), the lost time is dropped.
// Caught up, the Worker sleeps until the chip's next alarm (a still screen costs the
// app's polls only).  The canvas gets whole pictures only: the one the controller holds
// when the core sleeps after sending it (board.js, pictureDone).
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
const FRAME_MS = 16; // at most one picture per display refresh: the latest whole one
const SAVE_AFTER_MS = 150; // the flash is saved once the device stopped writing this long
const QUIET_MS = 300; // idle: no edge to come and no display traffic for this long (simulated)
const CYCLE_NANOS = 8; // the core's clock: 125 MHz
const LONGEST_SLEEP_MS = 1000; // a chip with no alarm set is looked at this often (a message wakes it at once)

let board = null;
let display = null;
let lastFramePost = -1e9;
let lastPictureMicros = 0; // the latest display traffic
let pictures = 0; // whole pictures that differ from the one before
let shown = null; // the latest whole picture (its bytes)
let unposted = null; // a whole picture not posted yet: {data, brightness}
let dirty = new Set(); // sectors the device wrote since the last save
let lastWriteWall = 0;
let repl = null;
let pacing = null; // {wall, nanos}: the moment simulated time was tied to the wall clock
// the latest edge no picture answered yet (wall time), and whether its gesture (a press
// and its release) has had its picture: one answer per press that changes the picture
const edges = { lastMicros: -1e12, pending: 0, pressedAt: new Map(), unanswered: null, gestureAnswered: true };
let answered = []; // wall times of the edges the whole pictures since the last frame posted answered
// The chip's speed, three ways (stats()):
// awake: the simulated time the core was awake (running, or waiting on a bus: the time a
//   real chip is busy) over the real time of the turns it was awake in; the turns it only
//   slept in are left out, a turn it was awake in counts whole (its sleep's real time too);
// answers: from each answered edge to its whole picture, simulated time over the
//   emulation's real time in between (the Worker's waits left out): how much longer than
//   on the device a press takes to draw, the way speed.js's answers measure it;
// instructions: the cycles the core executed (as simulated time) over the emulation's
//   real time, waiting and sleeping left out: the emulated core's raw rate.
const speed = { awakeWall: 0, awakeNanos: 0, answerWall: 0, answerNanos: 0, answers: 0, cycleNanos: 0 };
let answerFrom = null; // {nanos, work}: when the edge the next whole picture answers fell due
let workMs = 0; // real time spent emulating, in all
let turns = 0; // turns of the Worker's event loop that ran the chip
let turnBegan = 0; // performance.now() when the running turn began
let sleeping = null; // the timer of a caught-up Worker waiting for the chip's next alarm
const waiters = []; // idle() promises: {id, resolve}

function wallNow() {
  return performance.timeOrigin + performance.now();
}

const listener = {
  i2c(micros, bytes) {
    display.write(bytes);
    lastPictureMicros = micros;
  },
  spi(micros, level, duty, bytes) {
    display.write(level, duty, bytes);
    lastPictureMicros = micros;
  },
  pictureDone(micros) {
    lastPictureMicros = micros;
    const data = display.frame();
    if (shown && sameBytes(shown, data)) return; // drawn again as it was
    shown = data;
    pictures++;
    unposted = { data, brightness: display.brightness() };
    if (edges.unanswered !== null) {
      if (answerFrom !== null) {
        speed.answers++;
        speed.answerNanos += board.nanos() - answerFrom.nanos;
        speed.answerWall += workMs + (performance.now() - turnBegan) - answerFrom.work;
        answerFrom = null;
      }
      answered.push(edges.unanswered);
      edges.unanswered = null;
      edges.gestureAnswered = true;
    }
    postFrame();
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
    answerFrom = null;
    lastPictureMicros = 0;
    shown = null;
    edges.pending = 0;
    edges.lastMicros = -1e12;
    edges.pressedAt.clear();
    pacing = { wall: wallNow(), nanos: 0 };
  },
};

function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
  repl = new RawRepl((bytes) => {
    board.fromHost(bytes);
    wake(); // the device reads them now, not at its next alarm
  });
  pacing = { wall: wallNow(), nanos: board.nanos() };
  postMessage({ type: 'booted' });
  turn();
}

/**
 * One turn: emulate up to the wall clock (or SLICE_MS of work), then let messages in.
 * Caught up, the Worker sleeps until the chip's next alarm falls due in real time (the
 * app's next poll, a press's edge), or a message wakes it (a press, the REPL).
 */
function turn() {
  sleeping = null;
  turns++;
  const began = performance.now();
  turnBegan = began;
  const chip = board.mcu;
  const nanosBefore = board.nanos();
  const cyclesBefore = chip.core.cycles;
  const sleptBefore = board.sleptNanos;
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
  workMs += spent;
  if (board.mcu === chip) { // no reboot in the turn (a new chip's clock starts again at zero)
    speed.cycleNanos += (chip.core.cycles - cyclesBefore) * CYCLE_NANOS;
    const awake = board.nanos() - nanosBefore - (board.sleptNanos - sleptBefore);
    if (awake > 0) {
      speed.awakeWall += spent;
      speed.awakeNanos += awake;
    }
  }
  if (!caughtUp) {
    const lag = pacing.nanos + (wallNow() - pacing.wall) * 1e6 - board.nanos();
    if (lag > SLOWEST_STEP_MS * 1e6) pacing = { wall: wallNow(), nanos: board.nanos() };
  }
  postFrame();
  saveIfQuiet();
  answerIdle();
  if (!caughtUp) {
    next();
    return;
  }
  // caught up in the middle of the chip's work (not asleep): it goes on as soon as the
  // wall clock moved on, not at its next alarm (which may be a second away, or none)
  const alarm = board.mcu.core.waiting ? board.nextWakeNanos() : board.nanos();
  let wait = alarm !== null ? pacing.wall + (alarm - pacing.nanos) / 1e6 - wallNow() : LONGEST_SLEEP_MS;
  if (unposted) wait = Math.min(wait, FRAME_MS);
  if (dirty.size) wait = Math.min(wait, SAVE_AFTER_MS);
  if (waiters.length) wait = Math.min(wait, 50); // idle() waits for quiet simulated time to pass
  sleeping = setTimeout(turn, Math.max(1, Math.min(LONGEST_SLEEP_MS, wait)));
}

/** A message came (a press, bytes for the REPL): the sleeping Worker runs the chip at once. */
function wake() {
  if (sleeping === null) return;
  clearTimeout(sleeping);
  sleeping = null;
  next();
}

// a zero-delay turn of the event loop (setTimeout would wait 4 ms once nested)
const channel = new MessageChannel();
channel.port1.onmessage = turn;
function next() {
  channel.port2.postMessage(0);
}

/** The latest whole picture to the page, at most one per FRAME_MS. */
function postFrame() {
  if (!unposted || performance.now() - lastFramePost < FRAME_MS) return;
  lastFramePost = performance.now();
  const { data, brightness } = unposted;
  unposted = null;
  postMessage({ type: 'frame', kind: display instanceof OledModel ? 'mono' : 'rgb565', data,
    brightness, pictures, answered });
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
    && micros - edges.lastMicros >= QUIET_MS * 1000 && !dirty.size && !unposted;
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
    // the whole picture that follows answers this edge: the press (DOWN moves the
    // cursor), or its release when the press changed nothing (OK acts on release)
    if (pressed) {
      edges.unanswered = at;
      edges.gestureAnswered = false;
    } else if (!edges.gestureAnswered) edges.unanswered = at;
    if (edges.unanswered === at) answerFrom = { nanos: board.nanos(), work: workMs + (performance.now() - turnBegan) };
  });
}

function statistics() {
  return {
    speed: speed.awakeWall ? speed.awakeNanos / 1e6 / speed.awakeWall : null, // awake (above)
    awakeMs: speed.awakeWall, // real time of the turns the core was awake in
    awakeSimulatedMs: speed.awakeNanos / 1e6, // the core's simulated time awake in them
    answers: speed.answers, // edges answered by a whole picture, and for them:
    answerMs: speed.answerWall, // the emulation's real time from each edge to its picture
    answerSimulatedMs: speed.answerNanos / 1e6, // and the simulated time
    cyclesMs: speed.cycleNanos / 1e6, // the cycles the core executed, as simulated time
    simulatedMs: board.nanos() / 1e6,
    workMs,
    turns,
    sleeps: board.sleeps,
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
  if (board) wake();
};
