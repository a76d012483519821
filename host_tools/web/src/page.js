// The page around the emulated Pico: the board chooser, the glass, the buttons (on
// screen, keyboard, touch), the flash kept in IndexedDB, the settings of a new game,
// and window.scoreboard, the hook for machines (docs/web.md).
'use strict';

const { Glass, blank } = require('./glass');
const { FlashStore } = require('./storage');
const { pageLanguage, text } = require('./texts');

const BUTTONS = ['UP', 'DOWN', 'OK', 'BACK'];
const KEYS = { ArrowUp: 'UP', ArrowDown: 'DOWN', Enter: 'OK', Backspace: 'BACK', ArrowRight: 'OK', ArrowLeft: 'BACK' };
// the app's loop (the app module's run()) on the App object the boot made, after the REPL
// stopped it, with run()'s own loop (App.loop); the screen drawn again first, in case
// the interrupt came in the middle of a drawing
const RESUME = 'import board\nboard.app.dirty = True\nboard.app.loop()\n';
const STATE = 'import board, sys\nboard.app.write_state(sys.stdout)\n';

const store = new FlashStore();
const language = pageLanguage(navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language]);
const t = (key, values) => text(language, key, values);
let replChain = Promise.resolve(); // the device's REPL, one user at a time
let config = null;
let device = null; // the running board: {name, wiring, worker, glass, ...}
let requests = 0;
const answers = new Map(); // request id -> resolve
const pressToPixels = []; // ms from an input event to the glass showing the whole picture answering it
let framesDrawn = 0; // pictures drawn on the canvas (each a whole one)
let readyResolve;
let ready = new Promise((resolve) => { readyResolve = resolve; });
let firstBoot;
// resolves once the device drew and took the new game's settings (replaced at each new boot)
let booting = new Promise((resolve, reject) => { firstBoot = { resolve, reject }; });
let pendingSaves = Promise.resolve();
let loadStarted = performance.now();
let firstFrameMs = null;

const $ = (selector) => document.querySelector(selector);

function ask(message) {
  const id = ++requests;
  return new Promise((resolve, reject) => {
    answers.set(id, (answer) => (answer.err ? reject(new Error(answer.err)) : resolve(answer)));
    device.worker.postMessage({ ...message, id });
  });
}

async function fetchBytes(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.arrayBuffer();
}

function settingsKey(board) {
  return `coinche-new-game-${board}`;
}

/** Starts the board's emulated Pico on its stored flash. */
async function boot(name) {
  if (device) device.worker.terminate();
  const wiring = config.boards[name];
  loadStarted = performance.now();
  firstFrameMs = null;
  ready = new Promise((resolve) => { readyResolve = resolve; });
  document.body.dataset.board = name;
  $('#board').value = name;
  $('#device').className = `device ${wiring.kind}`;
  const glass = new Glass($('#glass'), wiring.width, wiring.height);
  glass.canvas.style.aspectRatio = `${wiring.width} / ${wiring.height}`;
  $('#uf2').href = wiring.uf2;
  for (const button of document.querySelectorAll('[data-button]')) {
    const index = BUTTONS.indexOf(button.dataset.button);
    button.querySelector('.label').textContent = wiring.labels[index];
  }
  $('#lang').value = localStorage.getItem(languageKey(name)) || config.defaultLanguage;
  setStatus(t('starting'));
  const [bootrom, uf2, sectors] = await Promise.all([
    fetchBytes(config.bootrom),
    fetchBytes(wiring.uf2).catch((error) => {
      throw Object.assign(new Error(`${wiring.uf2}: ${error.message}`), { unfetched: true });
    }),
    store.load(name)]);
  replChain = Promise.resolve();
  const worker = new Worker('worker.js');
  const current = { name, wiring, worker, glass, held: new Set() };
  device = current;
  worker.onmessage = (event) => received(current, event.data);
  worker.onerror = (event) => setStatus(t('stopped', { error: event.message }));
  worker.postMessage({ type: 'start', board: wiring, bootrom, uf2, sectors }, [bootrom, uf2]);
  await ready;
  setStatus('');
  keepForOffline(wiring.uf2);
  await applyNewGameSettings();
}

/**
 * Once the service worker controls the page, every board's UF2 goes through it into its
 * cache (this board's first, the others after it, one at a time): any board opens with
 * no network after one visit.
 */
function keepForOffline(first) {
  if (!('serviceWorker' in navigator)) return;
  const container = navigator.serviceWorker;
  const controlled = container.controller ? Promise.resolve()
    : new Promise((resolve) => container.addEventListener('controllerchange', resolve, { once: true }));
  const paths = [first, ...Object.values(config.boards).map((wiring) => wiring.uf2).filter((path) => path !== first)];
  controlled.then(async () => {
    for (const path of paths) await fetch(path).then((response) => response.arrayBuffer());
  }).catch(() => {});
}

function received(from, message) {
  if (from !== device) return; // a worker that was replaced
  if (message.type === 'frame') {
    from.glass.draw(message.kind, message.data, message.brightness);
    framesDrawn++;
    const drawn = performance.timeOrigin + performance.now();
    for (const at of message.answered) pressToPixels.push(drawn - at);
    if (firstFrameMs === null && message.pictures > 0 && !blank(message.kind, message.data)) {
      firstFrameMs = performance.now() - loadStarted;
      readyResolve();
    }
  } else if (message.type === 'flash') {
    const name = from.name;
    pendingSaves = pendingSaves.then(() => store.save(name, message.sectors)).catch(
      (error) => setStatus(t('notKept', { error })));
  } else if (message.type === 'done') {
    const answer = answers.get(message.id);
    answers.delete(message.id);
    if (answer) answer(message);
  } else if (message.type === 'failed') {
    setStatus(t('failed', { error: message.message }));
  }
}

function setStatus(text) {
  $('#status').textContent = text;
}

// -- buttons

function press(button, pressed, timeStamp) {
  if (!device) return;
  const held = device.held;
  if (pressed === held.has(button)) return; // a key's auto-repeat, or a second finger
  if (pressed) held.add(button);
  else held.delete(button);
  const element = document.querySelector(`[data-button="${button}"]`);
  if (element) element.classList.toggle('held', pressed);
  const gpio = device.wiring.buttons[BUTTONS.indexOf(button)];
  device.worker.postMessage({ type: 'button', gpio, pressed, at: performance.timeOrigin + timeStamp });
}

function wireButtons() {
  for (const element of document.querySelectorAll('[data-button]')) {
    const button = element.dataset.button;
    element.addEventListener('pointerdown', (event) => {
      event.preventDefault();
      element.setPointerCapture(event.pointerId);
      press(button, true, event.timeStamp);
    });
    const release = (event) => press(button, false, event.timeStamp);
    element.addEventListener('pointerup', release);
    element.addEventListener('pointercancel', release);
    element.addEventListener('lostpointercapture', release);
    element.addEventListener('contextmenu', (event) => event.preventDefault());
    // a keyboard's Enter or Space on a focused button would press it twice: the keys have their own map
    element.addEventListener('click', (event) => event.preventDefault());
  }
  window.addEventListener('keydown', (event) => {
    const button = KEYS[event.key];
    if (!button || event.target.closest('input, dialog')) return;
    event.preventDefault();
    if (!event.repeat) press(button, true, event.timeStamp);
  });
  window.addEventListener('keyup', (event) => {
    const button = KEYS[event.key];
    if (!button || event.target.closest('input, dialog')) return;
    event.preventDefault();
    press(button, false, event.timeStamp);
  });
  window.addEventListener('blur', () => {
    if (!device) return;
    for (const button of [...device.held]) press(button, false, performance.now());
  });
}

// -- the device's REPL

async function exec(code) {
  const answer = await ask({ type: 'exec', code });
  return answer.out;
}

async function resume() {
  await ask({ type: 'exec', code: RESUME, leaveRunning: true });
}

/** Resolves once the latest boot is done (a reset or a board change meanwhile is waited for too). */
async function started() {
  let seen;
  do {
    seen = booting;
    await seen;
  } while (seen !== booting);
}

/** fn() with the device's REPL to itself (the app stopped and resumed in it). */
function withRepl(fn) {
  const run = replChain.then(fn);
  replChain = run.catch(() => {});
  return run;
}

async function state() {
  await started();
  return withRepl(async () => {
    const out = await exec(STATE);
    await resume();
    return JSON.parse(out);
  });
}

/** The new game's settings chosen at the reset, written by the device's own settings code. */
async function applyNewGameSettings() {
  const text = localStorage.getItem(settingsKey(device.name));
  if (!text) return;
  const chosen = JSON.parse(text);
  const lines = ['import board', 'app = board.app'];
  if (chosen.lang) lines.push(`app.change_setting('s_lang', ${JSON.stringify(chosen.lang)})`);
  if (chosen.preset) lines.push(`app.change_setting('s_preset', ${JSON.stringify(chosen.preset)})`);
  if (chosen.target) lines.push(`app.change_setting('s_target', ${Number(chosen.target)})`);
  lines.push('app.toast_msg = None', 'app.home()', 'del app', '');
  setStatus(t('settingUp'));
  await withRepl(async () => {
    await exec(lines.join('\n'));
    await resume();
  });
  localStorage.removeItem(settingsKey(device.name));
  setStatus('');
}

function languageKey(board) {
  return `coinche-language-${board}`;
}

/**
 * The device's language, changed now by the device's own settings code, as its
 * Settings screen changes it (no reset: the game goes on; a new game keeps it).
 */
async function changeLanguage(code) {
  const name = device.name;
  localStorage.setItem(languageKey(name), code);
  await started();
  if (!device || device.name !== name) return;
  await withRepl(async () => {
    await exec(`import board\nboard.app.change_setting('s_lang', ${JSON.stringify(code)})\n`);
    await resume();
  });
}

async function saved() {
  await ask({ type: 'flush' });
  await pendingSaves;
}

// -- the controls

function fillChoices() {
  const board = $('#board');
  for (const [name, wiring] of Object.entries(config.boards)) board.add(new Option(wiring.label, name));
  const lang = $('#lang');
  for (const [code, label] of config.languages) lang.add(new Option(label, code));
  const preset = $('#preset');
  for (const name of config.presets) preset.add(new Option(name, name));
  preset.value = config.defaultPreset;
  fillTargets();
  preset.addEventListener('change', fillTargets);
}

function fillTargets() {
  const target = $('#target');
  const preset = $('#preset').value;
  target.length = 0;
  for (const value of config.targets) {
    const option = new Option(String(value), String(value));
    target.add(option);
  }
  target.value = String(config.presetTargets[preset]);
}

function chooseBoard(name) {
  if (device && device.name === name) return;
  const previous = device && device.name;
  booting = (async () => {
    if (device) await saved();
    await bootOrFallBack(name, previous);
  })();
}

/**
 * The board `name`, or, when its UF2 cannot be fetched (no network, and this browser
 * never kept it), the board before it, saying so plainly.
 */
async function bootOrFallBack(name, previous) {
  try {
    await boot(name);
    localStorage.setItem('coinche-board', name);
  } catch (error) {
    const other = [previous, config.defaultBoard, ...Object.keys(config.boards)].find(
      (board) => board && board !== name && config.boards[board]);
    if (!error.unfetched || !other) throw error;
    await boot(other);
    localStorage.setItem('coinche-board', other);
    setStatus(t('needsNetwork', { board: config.boards[name].label, other: config.boards[other].label }));
  }
}

function resetDevice() {
  const label = config.boards[device.name].label;
  if (!window.confirm(t('confirmReset', { board: label }))) return;
  booting = forgetAndBoot();
}

async function forgetAndBoot() {
  const chosen = { lang: $('#lang').value, preset: $('#preset').value, target: Number($('#target').value) };
  const defaults = chosen.lang === config.defaultLanguage && chosen.preset === config.defaultPreset
    && chosen.target === config.presetTargets[config.defaultPreset];
  device.worker.terminate();
  await pendingSaves;
  await store.forget(device.name);
  if (defaults) localStorage.removeItem(settingsKey(device.name));
  else localStorage.setItem(settingsKey(device.name), JSON.stringify(chosen));
  localStorage.setItem(languageKey(device.name), chosen.lang);
  await boot(device.name);
}

/** The page's words in its language (texts.js). */
function translate() {
  document.documentElement.lang = language;
  document.title = t('title');
  for (const element of document.querySelectorAll('[data-text]')) element.textContent = t(element.dataset.text);
  for (const element of document.querySelectorAll('[data-html]')) element.innerHTML = t(element.dataset.html);
}

/** A chooser picked with the mouse or a finger gives the keys back to the device. */
function giveKeysBack(event) {
  event.target.blur();
}

async function main() {
  translate();
  // the folder kept by the browser, so that the next visit needs no network
  if ('serviceWorker' in navigator) navigator.serviceWorker.register('sw.js').catch(() => {});
  try {
    config = await (await fetch('config.json')).json();
  } catch (error) {
    setStatus(t('noNetwork'));
    return;
  }
  fillChoices();
  wireButtons();
  $('#board').addEventListener('change', (event) => {
    giveKeysBack(event);
    chooseBoard(event.target.value);
  });
  $('#lang').addEventListener('change', (event) => {
    giveKeysBack(event);
    changeLanguage(event.target.value);
  });
  for (const id of ['#preset', '#target']) $(id).addEventListener('change', giveKeysBack);
  $('#reset').addEventListener('click', () => resetDevice());
  // a phone puts a hidden tab to sleep, or closes it, without asking: keep what the device wrote
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden' && device) saved();
  });
  const asked = new URLSearchParams(location.search).get('board');
  const name = [asked, localStorage.getItem('coinche-board'), config.defaultBoard].find((b) => b && config.boards[b]);
  await bootOrFallBack(name, null).then(firstBoot.resolve, (error) => {
    firstBoot.reject(error);
    throw error;
  });
}

window.scoreboard = {
  ready: started,
  state,
  idle: () => ask({ type: 'idle' }).then(() => undefined),
  saved,
  board: () => device && device.name,
  /** The glass as the controller holds it: {fmt, w, h, data (base64)}, as the simulator's frames. */
  frame() {
    const { kind, data } = device.glass.last;
    let text = '';
    for (const byte of data) text += String.fromCharCode(byte);
    return { fmt: kind, w: device.wiring.width, h: device.wiring.height, data: btoa(text) };
  },
  async stats() {
    const answer = await ask({ type: 'stats' });
    return { ...answer.stats, firstFrameMs, framesDrawn, pressToPixels: pressToPixels.slice() };
  },
};

main().catch((error) => setStatus(t('couldNotStart', { error })));
