// The core's reads and writes of SRAM and flash, straight to typed arrays.
//
// Every instruction fetch, and most loads and stores, go from the core to rp2040js's
// RP2040.readUint16/readUint32/writeUint32..., which test the address against the boot
// ROM, the flash, the SRAM, the USB RAM and the peripherals in turn and then read a
// DataView.  Here the core's own readUintN/writeUintN (CortexM0Core's methods, which only
// hand the call on to the RP2040) test first the one or two places nearly every access
// goes to, and read or write a Uint16Array/Uint32Array over the very same buffer; any
// other address, and any address not aligned to the access's size, goes to rp2040js's
// method as before.  Exact because each fast path is taken only where rp2040js's method
// would take that same branch and read or write those same bytes:
//   readUint16:  flash [0x10000000, +16 MB) and SRAM, tested first in rp2040js too, on
//                the address as given (no wrap to 32 bits).
//   readUint32:  SRAM, and flash through its four mirrors [0x10000000, 0x14000000)
//                (the constants the code loads), after the address is wrapped to 32
//                bits as rp2040js does; the ranges it tests before these (the boot ROM,
//                and flash before SRAM) do not overlap them.
//   readUint8, writeUint8, writeUint16: SRAM, the first range rp2040js tests.
//   writeUint32: SRAM; rp2040js looks for a peripheral first, and none is mapped there.
'use strict';

const FLASH_START = 0x10000000;
const SRAM_START = 0x20000000;
const FLASH_MIRRORS_END = 0x14000000; // XIP, XIP_NOALLOC, XIP_NOCACHE, XIP_NOCACHE_NOALLOC
const FLASH_MIRROR_MASK = 0xffffff; // rp2040js: each mirror reads the 16 MB flash array at address & this

// The fast paths, one function each for every core (methods: `this` is the core), so
// V8 sees the same function in the core's field after a reboot's new chip and can
// inline it into the instructions that call it (a closure per chip would not be).
function readUint16(address) {
  if (!(address & 1)) {
    if (address >= FLASH_START && address + 1 < this.fastFlashEnd) return this.fastFlash16[(address - FLASH_START) >>> 1];
    if (address >= SRAM_START && address + 1 < this.fastSramEnd) return this.fastSram16[(address - SRAM_START) >>> 1];
  }
  return this.rp2040.readUint16(address);
}

function readUint32(address) {
  const at = address >>> 0;
  if (!(at & 3)) {
    if (at >= SRAM_START && at + 3 < this.fastSramEnd) return this.fastSram32[(at - SRAM_START) >>> 2];
    if (at >= FLASH_START && at < FLASH_MIRRORS_END) return this.fastFlash32[(at & FLASH_MIRROR_MASK) >>> 2];
  }
  return this.rp2040.readUint32(address);
}

function readUint8(address) {
  if (address >= SRAM_START && address < this.fastSramEnd) return this.fastSram8[address - SRAM_START];
  return this.rp2040.readUint8(address);
}

function writeUint32(address, value) {
  const at = address >>> 0;
  if (!(at & 3) && at >= SRAM_START && at + 3 < this.fastSramEnd) this.fastSram32[(at - SRAM_START) >>> 2] = value;
  else this.rp2040.writeUint32(address, value);
}

function writeUint16(address, value) {
  if (!(address & 1) && address >= SRAM_START && address + 1 < this.fastSramEnd) {
    this.fastSram16[(address - SRAM_START) >>> 1] = value;
  } else this.rp2040.writeUint16(address, value);
}

function writeUint8(address, value) {
  if (address >= SRAM_START && address < this.fastSramEnd) this.fastSram8[address - SRAM_START] = value;
  else this.rp2040.writeUint8(address, value);
}

/** Installs the fast paths on mcu.core (an RP2040 of rp2040js, its memories allocated). */
function install(mcu) {
  const core = mcu.core;
  const flash = mcu.flash;
  const sram = mcu.sram;
  if (flash.byteOffset & 3 || sram.byteOffset & 3) return; // views need aligned offsets
  if (new Uint8Array(Uint16Array.of(1).buffer)[0] !== 1) return; // the views read little-endian, as the chip
  if (mcu.peripherals[(SRAM_START >>> 14) << 2]) return; // a peripheral over SRAM: rp2040js's order matters
  if (flash.length !== FLASH_MIRROR_MASK + 1) return; // rp2040js's own flash array: 16 MB, all of a mirror
  core.fastFlash32 = new Uint32Array(flash.buffer, flash.byteOffset, flash.length >>> 2);
  core.fastFlash16 = new Uint16Array(flash.buffer, flash.byteOffset, flash.length >>> 1);
  core.fastFlashEnd = FLASH_START + flash.length; // rp2040js: address + 1 < FLASH_START + length
  core.fastSram8 = sram;
  core.fastSram16 = new Uint16Array(sram.buffer, sram.byteOffset, sram.length >>> 1);
  core.fastSram32 = new Uint32Array(sram.buffer, sram.byteOffset, sram.length >>> 2);
  core.fastSramEnd = SRAM_START + sram.length;
  Object.assign(core, { readUint16, readUint32, readUint8, writeUint32, writeUint16, writeUint8 });
}

module.exports = { install };
