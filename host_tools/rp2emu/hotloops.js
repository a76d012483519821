// Hot loops of the firmware run at once: the turns of a loop the core would run one
// instruction at a time, done in JS with exactly their effect (registers, flags, cycles,
// simulated time), so the emulator spends its time elsewhere.
//
// A still screen is the app's poll every 10 ms, and two thirds of a poll's instructions
// were one loop: MicroPython's gc_alloc (py/gc.c) looking through the allocation table
// for room, past its used part, a byte (four blocks) a turn.  A loop is known by its
// code: the exact halfwords of the turn it runs, found in the flash at power-on (the
// UF2 `make uf2` builds has them; a firmware compiled otherwise just runs as before).
// Only the plainest turn is taken at once (here: the byte's four blocks all in use,
// the scan goes on); at the first turn that would do anything else, the core goes on
// from the loop's head as it would have, one instruction at a time.  Turns are taken
// only while no alarm falls due within them and no interrupt is pending, so the chip
// sees every interrupt at the instruction it would have.
// tests/test_rp2emu_hotloops.py holds each loop to the instruction-by-instruction run
// (the same state, the same cycles, at every step of a boot, a still screen and presses).
'use strict';

const FLASH_BASE = 0x10000000;

/**
 * MicroPython's gc_alloc, the allocation table scan (py/gc.c, `for (i = gc_last_free_atb_index;
 * ...)` with its four ATB_n_IS_FREE tests), as arm-none-eabi-gcc -Os compiled it for the
 * rp2 port: at the head, r3 = i, [sp, #8] = the table's length in bytes, ip = the table,
 * r0 = 0x30 and r7 = 0x0c (the masks of blocks 2 and 1).  A turn on a byte whose four
 * blocks are all in use is these 24 instructions, 34 cycles in rp2040js's count:
 *   head+0x00  ldr r2,[sp,#8]; cmp r2,r3; bhi +0x20              (2+1+2)
 *   head+0x20  mov r1,ip; movs r2,#3; ldrb r1,[r1,r3]; tst r1,r2; bne +0xf4   (1+1+2+1+2)
 *   head+0xf4  movs r4,r1; ands r4,r7; tst r1,r7; bne +0x11a     (1+1+1+2)
 *   head+0x11a movs r4,r1; ands r4,r0; tst r1,r0; bne +0x130     (1+1+1+2)
 *   head+0x130 movs r4,#0; b +0xe2                               (1+2)
 *   head+0xe2  cmp r1,#63; bhi +0x134                            (1+2)
 *   head+0x134 movs r4,#0; b +0x116                              (1+2)
 *   head+0x116 adds r3,#1; b head                                (1+2)
 * and leaves r1 = the byte, r2 = 3, r4 = 0, r3 = i + 1, the flags of the adds.
 */
const GC_ALLOC_SCAN = {
  name: 'gc_alloc table scan',
  code: [
    [0x000, [0x9a02, 0x429a, 0xd80c]],
    [0x020, [0x4661, 0x2203, 0x5cc9, 0x4211, 0xd164]],
    [0x0e2, [0x293f, 0xd826]],
    [0x0f4, [0x000c, 0x403c, 0x4239, 0xd10e]],
    [0x116, [0x3301, 0xe772]],
    [0x11a, [0x000c, 0x4004, 0x4201, 0xd106]],
    [0x130, [0x2400, 0xe7d6]],
    [0x134, [0x2400, 0xe7ee]],
  ],
  instructions: 24,
  cycles: 34,
  /** Turns at most `most`; the number taken (0: the core runs the head itself). */
  run(mcu, core, most) {
    const registers = core.registers;
    const sram = mcu.sram;
    const sp = core.SP;
    const spAt = sp - 0x20000000 + 8;
    if (spAt < 0 || spAt + 4 > sram.length) return 0;
    const length = mcu.sramView.getUint32(spAt, true);
    const table = registers[12];
    const mask1 = registers[7];
    const mask2 = registers[0];
    let i = registers[3];
    const base = table - 0x20000000;
    let taken = 0;
    let byte = 0;
    while (taken < most && i < length) { // cmp r2,r3; bhi: unsigned
      const at = base + i;
      if (at < 0 || at >= sram.length) break; // the table is in SRAM; anything else, the core reads it
      byte = sram[at];
      if (!(byte & 3) || !(byte & mask1) || !(byte & mask2) || byte <= 63) break;
      i = (i + 1) >>> 0;
      taken++;
    }
    if (!taken) return 0;
    registers[1] = byte;
    registers[2] = 3;
    registers[4] = 0;
    registers[3] = core.addUpdateFlags(i - 1 >>> 0, 1);
    return taken;
  },
};

const LOOPS = [GC_ALLOC_SCAN];

function halfword(flash, offset) {
  return flash[offset] | (flash[offset + 1] << 8);
}

/** Does `loop`'s code stand at flash offset `head`? */
function codeAt(flash, loop, head) {
  for (const [offset, words] of loop.code) {
    for (let k = 0; k < words.length; k++) {
      const at = head + offset + 2 * k;
      if (at + 1 >= flash.length || halfword(flash, at) !== words[k]) return false;
    }
  }
  return true;
}

/** The loops found in the flash: [{pc, loop}], each loop's head address. */
function find(flash, limit) {
  const found = [];
  const end = Math.min(flash.length, limit || flash.length);
  for (const loop of LOOPS) {
    const [first, second, third] = loop.code[0][1];
    for (let at = 0; at + 6 <= end; at += 2) {
      if (halfword(flash, at) === first && halfword(flash, at + 2) === second
          && halfword(flash, at + 4) === third && codeAt(flash, loop, at)) {
        found.push({ pc: FLASH_BASE + at, loop });
      }
    }
  }
  return found;
}

module.exports = { LOOPS, find, codeAt, FLASH_BASE };
