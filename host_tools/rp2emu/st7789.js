// The ST7789 with the Pimoroni Pico Display Pack's glass, as the page decodes it: SPI
// bytes with the D/C level they were sent at in, the glass out.  The same decoding as
// the simulator's controller model (host_tools/sim/device_side/models/st7789.py, from the
// datasheet): commands while D/C is low, parameters and pixel data while it is high;
// RAMWR data walks the CASET/RASET window, mapped to RAM by MADCTL; the glass is
// 135x240 on RAM columns 52..186, rows 40..279, "upright landscape" being Pimoroni's
// default orientation; the IPS panel shows true colours with inversion on (INVON).
'use strict';

const RAM_COLS = 240;
const RAM_ROWS = 320;
const GLASS_COL0 = 52;
const GLASS_ROW0 = 40;
const WIDTH = 240; // landscape glass
const HEIGHT = 135;
const PARAMETERS = new Map([[0x2a, 4], [0x2b, 4], [0x36, 1], [0x3a, 1]]);

class St7789Model {
  constructor() {
    this.glass = new Uint8Array(WIDTH * HEIGHT * 2); // big-endian RGB565, as received
    this.duty = -1; // the backlight's PWM duty, -1: full (no PWM)
    this.version = 0;
    this.reset();
  }

  /** Hardware or software reset: registers to defaults, RAM kept. */
  reset() {
    this.sleeping = true;
    this.displayOn = false;
    this.inverted = false;
    this.madctl = 0;
    this.colmod = 0x66;
    this.xs = 0;
    this.xe = RAM_COLS - 1;
    this.ys = 0;
    this.ye = RAM_ROWS - 1;
    this.x = 0;
    this.y = 0;
    this.op = -1;
    this.parameters = [];
    this.writing = false;
    this.half = -1; // the first byte of a pixel whose second byte is still to come
    this.version++;
  }

  /** Bytes sent at one D/C level (0: commands), with the backlight's duty then. */
  write(level, duty, bytes) {
    this.duty = duty;
    if (level === 0) {
      for (const b of bytes) this.command(b);
    } else if (this.writing) {
      this.ramData(bytes);
    } else {
      for (const b of bytes) this.parameter(b);
    }
    this.version++;
  }

  command(op) {
    this.op = op;
    this.parameters = [];
    this.writing = false;
    this.half = -1;
    if (op === 0x01) this.reset();
    else if (op === 0x10) this.sleeping = true;
    else if (op === 0x11) this.sleeping = false;
    else if (op === 0x20) this.inverted = false;
    else if (op === 0x21) this.inverted = true;
    else if (op === 0x28) this.displayOn = false;
    else if (op === 0x29) this.displayOn = true;
    else if (op === 0x2c) {
      this.x = this.xs;
      this.y = this.ys;
      this.writing = true;
    } else if (op === 0x3c) this.writing = true; // memory write continue: pointer kept
  }

  parameter(b) {
    if (this.op < 0) return;
    const p = this.parameters;
    p.push(b);
    if (p.length !== PARAMETERS.get(this.op)) return;
    if (this.op === 0x2a) {
      this.xs = (p[0] << 8) | p[1];
      this.xe = (p[2] << 8) | p[3];
    } else if (this.op === 0x2b) {
      this.ys = (p[0] << 8) | p[1];
      this.ye = (p[2] << 8) | p[3];
    } else if (this.op === 0x36) this.madctl = p[0];
    else if (this.op === 0x3a) this.colmod = p[0];
  }

  /** Byte offset in `glass` of the logical pointer (x, y), or -1 when unseen. */
  glassIndex(x, y) {
    const m = this.madctl;
    let c = m & 0x20 ? y : x;
    let r = m & 0x20 ? x : y;
    if (m & 0x40) c = RAM_COLS - 1 - c;
    if (m & 0x80) r = RAM_ROWS - 1 - r;
    const vx = r - GLASS_ROW0;
    const vy = GLASS_COL0 + HEIGHT - 1 - c;
    return vx >= 0 && vx < WIDTH && vy >= 0 && vy < HEIGHT ? (vy * WIDTH + vx) * 2 : -1;
  }

  ramData(bytes) {
    if ((this.colmod & 7) !== 5) return; // only 16-bit pixels are modelled
    let i = 0;
    if (this.half >= 0 && bytes.length) {
      this.put(this.half, bytes[0]);
      this.half = -1;
      i = 1;
    }
    for (; i + 1 < bytes.length; i += 2) this.put(bytes[i], bytes[i + 1]);
    if (i < bytes.length) this.half = bytes[i];
  }

  put(hi, lo) {
    const o = this.glassIndex(this.x, this.y);
    if (o >= 0) {
      this.glass[o] = hi;
      this.glass[o + 1] = lo;
    }
    if (this.x < this.xe) this.x++;
    else {
      this.x = this.xs;
      this.y = this.y < this.ye ? this.y + 1 : this.ys;
    }
  }

  /** Backlight 0..65535. */
  brightness() {
    return this.duty < 0 ? 65535 : this.duty;
  }

  /** The glass as big-endian RGB565 bytes, 240x135 (the simulator's frame format). */
  frame() {
    const light = this.brightness();
    if (this.sleeping || !this.displayOn || light === 0) return new Uint8Array(this.glass.length);
    const out = Uint8Array.from(this.glass);
    if (this.inverted && !(this.madctl & 0x08) && light === 65535) return out;
    const flip = this.inverted ? 0 : 0xffff; // IPS glass: INVOFF inverts
    const bgr = this.madctl & 0x08;
    for (let i = 0; i < out.length; i += 2) {
      const c = ((out[i] << 8) | out[i + 1]) ^ flip;
      let r = c >> 11;
      let g = (c >> 5) & 0x3f;
      let b = c & 0x1f;
      if (bgr) [r, b] = [b, r];
      if (light !== 65535) {
        r = Math.floor((r * light) / 65535);
        g = Math.floor((g * light) / 65535);
        b = Math.floor((b * light) / 65535);
      }
      const v = (r << 11) | (g << 5) | b;
      out[i] = v >> 8;
      out[i + 1] = v & 0xff;
    }
    return out;
  }
}

module.exports = { St7789Model, WIDTH, HEIGHT };
