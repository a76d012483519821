// MicroPython's raw REPL over the emulated USB serial, as mpremote speaks it: Ctrl-C
// stops the running program, Ctrl-A enters the raw REPL, the code goes in followed by
// Ctrl-D, the device answers "OK", then its output and its error output, each ended
// by Ctrl-D; Ctrl-B leaves.  The page uses it to read the app's state and to restart
// the app's loop on the same App object, as the emulator's tests read it with mpremote.
'use strict';

const RAW_PROMPT = 'raw REPL; CTRL-B to exit\r\n>';
const TIMEOUT_MS = 60000;

class RawRepl {
  /** send(bytes): to the device's USB serial. */
  constructor(send) {
    this.send = send;
    this.text = '';
    this.wanted = null; // {pattern, resolve, reject, timer}
    this.busy = Promise.resolve();
  }

  received(bytes) {
    for (const byte of bytes) this.text += String.fromCharCode(byte);
    this.check();
  }

  /** The device rebooted: whatever it was saying is gone. */
  reset() {
    this.text = '';
    if (this.wanted) {
      const { reject, timer } = this.wanted;
      this.wanted = null;
      clearTimeout(timer);
      reject(new Error('the device rebooted'));
    }
  }

  check() {
    if (!this.wanted) return;
    const at = this.text.indexOf(this.wanted.pattern);
    if (at < 0) return;
    const { resolve, timer, pattern } = this.wanted;
    this.wanted = null;
    clearTimeout(timer);
    const before = this.text.slice(0, at);
    this.text = this.text.slice(at + pattern.length);
    resolve(before);
  }

  until(pattern) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.wanted = null;
        reject(new Error(`the device did not say ${JSON.stringify(pattern)}`));
      }, TIMEOUT_MS);
      this.wanted = { pattern, resolve, reject, timer };
      this.check();
    });
  }

  write(text) {
    this.send(new TextEncoder().encode(text));
  }

  /** Runs code on the raw REPL: {out, err} (UTF-8 decoded); one at a time. */
  exec(code, leaveRunning = false) {
    const run = this.busy.then(() => this.execNow(code, leaveRunning));
    this.busy = run.catch(() => {});
    return run;
  }

  async execNow(code, leaveRunning) {
    this.text = '';
    this.write('\r\x03\x03');
    this.write('\r\x01');
    await this.until(RAW_PROMPT);
    this.write(code);
    this.write('\x04');
    await this.until('OK');
    if (leaveRunning) return { out: '', err: '' };
    const out = await this.until('\x04');
    const err = await this.until('\x04');
    await this.until('>');
    return { out: decode(out), err: decode(err) };
  }
}

function decode(latin1) {
  return new TextDecoder().decode(Uint8Array.from(latin1, (c) => c.charCodeAt(0)));
}

module.exports = { RawRepl };
