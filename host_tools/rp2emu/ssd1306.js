// The SSD1306 and SH1106 OLED controllers as the page decodes them: I2C write transfers
// in, the glass out.  The same decoding as the simulator's controller models
// (host_tools/sim/device_side/models/ssd1306.py, read from the datasheets: control bytes, commands
// and their arguments, the RAM pointer and its addressing modes, then RAM mapped to a
// common 128x64 module's glass), so both show the same picture of the same bytes.
'use strict';

const WIDTH = 128;
const HEIGHT = 64;

// Argument counts of the commands that take arguments.
const SSD1306_ARGS = new Map([
  [0x20, 1], [0x21, 2], [0x22, 2], [0x23, 1], [0x26, 6], [0x27, 6], [0x29, 5], [0x2a, 5],
  [0x81, 1], [0x8d, 1], [0xa3, 2], [0xa8, 1], [0xd3, 1], [0xd5, 1], [0xd6, 1], [0xd9, 1],
  [0xda, 1], [0xdb, 1],
]);
const SH1106_ARGS = new Map([
  [0x81, 1], [0xa8, 1], [0xad, 1], [0xd3, 1], [0xd5, 1], [0xd9, 1], [0xda, 1], [0xdb, 1],
]);

class OledModel {
  /** controller: "ssd1306" or "sh1106". */
  constructor(controller) {
    this.sh1106 = controller === 'sh1106';
    this.ramWidth = this.sh1106 ? 132 : 128;
    this.args = this.sh1106 ? SH1106_ARGS : SSD1306_ARGS;
    this.ram = new Uint8Array(this.ramWidth * 8);
    this.version = 0; // bumps on every change that may alter the picture
    this.powerOnReset();
  }

  powerOnReset() {
    this.displayOn = false;
    this.contrast = 0x7f;
    this.inverse = false;
    this.entireOn = false;
    this.segRemap = false;
    this.comRemap = false;
    this.mux = 64;
    this.offset = 0;
    this.startLine = 0;
    this.col = 0;
    this.page = 0;
    this.mode = 2; // SSD1306: page addressing
    this.colStart = 0;
    this.colEnd = 127;
    this.pageStart = 0;
    this.pageEnd = 7;
    this.chargePump = false; // SSD1306
    this.dcdc = true; // SH1106: AD 8B is the reset value
    this.op = -1; // a command waiting for its arguments
    this.argv = [];
    this.control = true; // the next byte of a transfer is a control byte
    this.continuation = false;
    this.dataBytes = false;
    this.version++;
  }

  /** One write transfer to the controller's address (the bytes after the address). */
  write(bytes) {
    this.control = true;
    for (const b of bytes) {
      if (this.control) {
        this.continuation = (b & 0x80) !== 0;
        this.dataBytes = (b & 0x40) !== 0;
        this.control = false;
        continue;
      }
      if (this.dataBytes) this.data(b);
      else this.commandByte(b);
      if (this.continuation) this.control = true; // Co=1: one byte, then a control byte
    }
    this.version++;
  }

  commandByte(b) {
    if (this.op >= 0) {
      this.argv.push(b);
      if (this.argv.length === this.args.get(this.op)) {
        const op = this.op;
        const argv = this.argv;
        this.op = -1;
        this.argv = [];
        this.command(op, argv);
      }
      return;
    }
    if (this.args.has(b)) {
      this.op = b;
      this.argv = [];
      return;
    }
    this.command(b, null);
  }

  command(op, argv) {
    if (op === 0x81) this.contrast = argv[0];
    else if (op === 0xa0 || op === 0xa1) this.segRemap = op === 0xa1;
    else if (op === 0xa4 || op === 0xa5) this.entireOn = op === 0xa5;
    else if (op === 0xa6 || op === 0xa7) this.inverse = op === 0xa7;
    else if (op === 0xa8) this.mux = (argv[0] & 0x3f) + 1;
    else if (op === 0xae || op === 0xaf) this.displayOn = op === 0xaf;
    else if (op >= 0xb0 && op <= 0xb7) {
      if (this.sh1106 || this.mode === 2) this.page = op & 7; // SSD1306: page addressing only
    } else if (op === 0xc0 || op === 0xc8) this.comRemap = op === 0xc8;
    else if (op === 0xd3) this.offset = argv[0] & 0x3f;
    else if (op >= 0x40 && op <= 0x7f) this.startLine = op & 0x3f;
    else if (this.sh1106) this.sh1106Command(op, argv);
    else this.ssd1306Command(op, argv);
  }

  ssd1306Command(op, argv) {
    if (op <= 0x0f) {
      if (this.mode === 2) this.col = (this.col & 0xf0) | op;
    } else if (op <= 0x1f) {
      if (this.mode === 2) this.col = (this.col & 0x0f) | ((op & 0x07) << 4);
    } else if (op === 0x20) {
      if ((argv[0] & 3) !== 3) this.mode = argv[0] & 3;
    } else if (op === 0x21) {
      this.colStart = argv[0] & 0x7f;
      this.colEnd = argv[1] & 0x7f;
      this.col = this.colStart;
    } else if (op === 0x22) {
      this.pageStart = argv[0] & 7;
      this.pageEnd = argv[1] & 7;
      this.page = this.pageStart;
    } else if (op === 0x8d) {
      this.chargePump = (argv[0] & 0x04) !== 0;
    }
  }

  sh1106Command(op, argv) {
    if (op <= 0x0f) this.col = (this.col & 0xf0) | op;
    else if (op <= 0x1f) this.col = (this.col & 0x0f) | ((op & 0x0f) << 4);
    else if (op === 0xad) this.dcdc = (argv[0] & 1) === 1;
    else if (op === 0xe0) this.readModifyWriteColumn = this.col;
    else if (op === 0xee && this.readModifyWriteColumn !== undefined) this.col = this.readModifyWriteColumn;
  }

  data(b) {
    if (this.sh1106) {
      if (this.col < 132) this.ram[this.page * 132 + this.col++] = b;
      return;
    }
    this.ram[this.page * 128 + this.col] = b;
    if (this.mode === 2) { // page: the column wraps, the page stays
      this.col = this.col < 127 ? this.col + 1 : 0;
    } else if (this.mode === 0) { // horizontal: column first, then page, in the window
      if (this.col < this.colEnd) this.col++;
      else {
        this.col = this.colStart;
        this.page = this.page < this.pageEnd ? this.page + 1 : this.pageStart;
      }
    } else if (this.page < this.pageEnd) { // vertical: page first, then column
      this.page++;
    } else {
      this.page = this.pageStart;
      this.col = this.col < this.colEnd ? this.col + 1 : this.colStart;
    }
  }

  /** Lit: null when the glass shows RAM, else 0 (all dark) or 1 (all lit). */
  lit() {
    const powered = this.sh1106 ? this.dcdc : this.chargePump;
    if (!this.displayOn || !powered) return 0;
    return this.entireOn ? 1 : null;
  }

  columnOf(x) {
    if (this.sh1106) { // 128 glass columns on SEG2..SEG129
      const seg = 129 - x;
      return this.segRemap ? 131 - seg : seg;
    }
    const seg = 127 - x;
    return this.segRemap ? 127 - seg : seg;
  }

  ramRow(y) {
    const com = HEIGHT - 1 - y; // the usual module: COM63 at the top edge
    let k = this.comRemap ? this.mux - 1 - com : com;
    k = (((k - this.offset) % 64) + 64) % 64;
    if (k >= this.mux) return -1;
    return (k + this.startLine) % 64;
  }

  /** Is glass pixel (x, y) lit? */
  pixel(x, y) {
    const lit = this.lit();
    if (lit !== null) return lit;
    const row = this.ramRow(y);
    if (row < 0) return this.inverse ? 1 : 0;
    const on = (this.ram[(row >> 3) * this.ramWidth + this.columnOf(x)] >> (row & 7)) & 1;
    return this.inverse ? on ^ 1 : on;
  }

  /** The glass as MONO_VLSB bytes, 128x64, bit 0 at the top (the simulator's frame format). */
  frame() {
    const out = new Uint8Array((WIDTH * HEIGHT) / 8);
    for (let y = 0; y < HEIGHT; y++) {
      for (let x = 0; x < WIDTH; x++) {
        if (this.pixel(x, y)) out[(y >> 3) * WIDTH + x] |= 1 << (y & 7);
      }
    }
    return out;
  }

  /** Lit-pixel brightness 0..255, as the simulator's screenshots show it (dim, not dark, at contrast 0). */
  brightness() {
    return this.displayOn ? 64 + Math.floor((191 * this.contrast) / 255) : 0;
  }
}

module.exports = { OledModel, WIDTH, HEIGHT };
