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
const SRAM_BASE = 0x20000000;

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
  turns(mcu, core, most) {
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

/**
 * framebuf's fills, a byte a turn (both loops below): byte = (byte & keep) | bits at `at`,
 * `at + stride`, ... for at most `turns` bytes, while they are in SRAM (anything else, the
 * core writes it).  Returns the bytes written.
 */
function fillBytes(sram, at, stride, turns, keep, bits) {
  let taken = 0;
  for (; taken < turns; taken++) {
    const offset = ((at + taken * stride) >>> 0) - SRAM_BASE;
    if (offset < 0 || offset >= sram.length) break;
    sram[offset] = (sram[offset] & keep) | bits;
  }
  return taken;
}

/** The register the fill left the last byte in: its byte, and the high bits `bits` brought (sign-extended). */
function filledValue(sram, address, bits) {
  return ((bits & ~0xff) | sram[address - SRAM_BASE]) >>> 0;
}

/**
 * MicroPython's framebuf, mono_horiz_fill_rect's inner loop (extmod/modframebuf.c): one
 * byte a row down a column of a MONO_HLSB/HMSB buffer (a vertical line, a glyph's
 * column).  At the head r6 = the rows left, r3 = the byte, r5 = the stride, r2 = the
 * mask that keeps the other pixels, r7 = the pixel's bits; a turn on a row left is 9
 * instructions, 13 cycles:
 *   head+0  cmp r6,#0; bne +8                                          (1+2)
 *   head+8  ldrb r4,[r3,#0]; subs r6,#1; ands r4,r2; orrs r4,r7;
 *           strb r4,[r3,#0]; adds r3,r3,r5; b head                     (2+1+1+1+2+1+2)
 */
const MONO_FILL_COLUMN = {
  name: 'mono_horiz_fill_rect column',
  code: [
    [0x000, [0x2e00, 0xd101]],
    [0x008, [0x781c, 0x3e01, 0x4014, 0x433c, 0x701c, 0x195b, 0xe7f4]],
  ],
  instructions: 9,
  cycles: 13,
  turns(mcu, core, most) {
    const registers = core.registers;
    const sram = mcu.sram;
    const bits = registers[7];
    const stride = registers[5];
    const rows = registers[6];
    const at = registers[3];
    const taken = fillBytes(sram, at, stride, Math.min(most, rows), registers[2], bits);
    if (!taken) return 0;
    const last = (at + (taken - 1) * stride) >>> 0;
    registers[4] = filledValue(sram, last, bits);
    registers[6] = (rows - taken) >>> 0;
    registers[3] = core.addUpdateFlags(last, stride);
    return taken;
  },
};

/**
 * MicroPython's framebuf, mvlsb_fill_rect's inner loop (extmod/modframebuf.c): one byte a
 * column along a row of a MONO_VLSB buffer (the OLED's: a fill, a clear, a horizontal
 * line).  At the head r3 = the byte, ip = the row's end, r1 = the mask that keeps the other
 * pixels and r6 = the pixel's bit (both sign-extended from a byte); a turn before the end
 * is 8 instructions, 12 cycles:
 *   head+0  cmp r3,ip; bne +8                                          (1+2)
 *   head+8  ldrb r4,[r3,#0]; ands r4,r1; orrs r4,r6; strb r4,[r3,#0];
 *           adds r3,#1; b head                                         (2+1+1+2+1+2)
 * and leaves r4 = the last byte's value (its high bits too), r3 + 1, the flags of the adds.
 */
const MVLSB_FILL_ROW = {
  name: 'mvlsb_fill_rect row',
  code: [
    [0x000, [0x4563, 0xd101]],
    [0x008, [0x781c, 0x400c, 0x4334, 0x701c, 0x3301, 0xe7f5]],
  ],
  instructions: 8,
  cycles: 12,
  turns(mcu, core, most) {
    const registers = core.registers;
    const sram = mcu.sram;
    const bit = registers[6];
    const at = registers[3];
    const taken = fillBytes(sram, at, 1, Math.min(most, (registers[12] - at) >>> 0), registers[1], bit);
    if (!taken) return 0;
    const last = (at + taken - 1) >>> 0;
    registers[4] = filledValue(sram, last, bit);
    registers[3] = core.addUpdateFlags(last, 1);
    return taken;
  },
};

/**
 * The Display Pack driver's expand_gs4 (firmware/drivers/st7789.py, viper, frozen in the
 * UF2): out[o] = palette[b >> 4] | palette[b & 15] << 16 for each byte b of the GS4
 * picture's changed rows.  Viper keeps i, o and every temporary in the frame: at the
 * head (the body's first instruction) r4 = pixels, [sp,#24] = i, [sp,#20] = o,
 * [sp,#28] = end, [sp,#32] = out, [sp,#36] = palette.  A turn whose `while i < end`
 * goes on is 63 instructions, 97 cycles (each ldr/str 2, push/pop of one register 2,
 * the two taken branches 2, the rest 1), and leaves [sp,#0] = i + 1, [sp,#4] = out,
 * [sp,#16] = b, [sp,#20] = o + 1, [sp,#24] = i + 1, [sp,#-4] = o (its push),
 * r0 = 1, r1 = i + 1, r2 = end, the flags of `cmp r0,#0`.  The last turn (i reaches
 * end) runs on the core.
 */
const EXPAND_GS4 = {
  name: 'expand_gs4',
  code: [
    [0x00, [0x9806, 0x4601, 0x4620, 0x5c40, 0x9004, 0x9809, 0x9000, 0x9804, 0x2204, 0x4601, 0x4111, 0x9800,
      0x004a, 0x5a80, 0x9000, 0x9809, 0x9001, 0x9804, 0x220f, 0x4601, 0x4011, 0x9801, 0x004a, 0x5a80, 0x2210,
      0x4601, 0x4091, 0x460a, 0x9900, 0x4311, 0x9808, 0x9001, 0x9805, 0x9100, 0x4601, 0x9801, 0x9a00, 0xb402,
      0x0089, 0x5042, 0xbc02, 0x9806, 0x2201, 0x4601, 0x1889, 0x4608, 0x9006, 0x9805, 0x2201, 0x4601, 0x1889,
      0x4608, 0x9005, 0x9806, 0x9000, 0x9807, 0x4602, 0x9900, 0x4291, 0xdb01]],
    [0x7c, [0x2001, 0x2800, 0xd1be]],
  ],
  instructions: 63,
  cycles: 97,
  turns(mcu, core, most) {
    const registers = core.registers;
    const sram = mcu.sram;
    const view = mcu.sramView;
    const bytes = sram.length;
    const sp = registers[13] - SRAM_BASE;
    if (sp < 4 || sp + 40 > bytes) return 0;
    const pixels = registers[4];
    let i = view.getUint32(sp + 24, true);
    let o = view.getUint32(sp + 20, true);
    const end = view.getUint32(sp + 28, true);
    const out = view.getUint32(sp + 32, true);
    const palette = view.getUint32(sp + 36, true);
    let b = 0;
    let taken = 0;
    while (taken < most) {
      const next = (i + 1) >>> 0;
      if (!((next | 0) < (end | 0))) break; // cmp r1,r2; blt: the loop ends after this turn
      const at = pixels + i - SRAM_BASE;
      const word = out + ((o << 2) >>> 0) - SRAM_BASE;
      if (at < 0 || at >= bytes || word < 0 || word + 3 >= bytes) break;
      if (word + 4 > sp - 4 && word < sp + 40) break; // out over the frame: the core does it
      const value = sram[at];
      const high = palette + ((value >> 4) << 1) - SRAM_BASE;
      const low = palette + ((value & 15) << 1) - SRAM_BASE;
      if (high < 0 || high + 1 >= bytes || low < 0 || low + 1 >= bytes) break;
      const entries = (view.getUint16(high, true) | (view.getUint16(low, true) << 16)) >>> 0;
      view.setUint32(word, entries, true);
      b = value;
      view.setUint32(sp - 4, o, true); // push {r1}
      i = next;
      o = (o + 1) >>> 0;
      taken++;
    }
    if (!taken) return 0;
    view.setUint32(sp + 0, i, true);
    view.setUint32(sp + 4, out, true);
    view.setUint32(sp + 16, b, true);
    view.setUint32(sp + 20, o, true);
    view.setUint32(sp + 24, i, true);
    registers[0] = 1;
    registers[1] = i;
    registers[2] = end;
    core.substractUpdateFlags(1, 0);
    return taken;
  },
};

/**
 * littlefs's lfs2_crc (lib/littlefs/lfs2_util.c): the CRC-32 of a buffer, a nibble table
 * (rtable, in flash) twice per byte.  At the head r0 = the CRC, r1 = the byte, r2 = the
 * end, r4 = rtable, r5 = 15; a turn on a byte before the end is 18 instructions, 23
 * cycles:
 *   head+0  cmp r1,r2; bne +6                                                  (1+2)
 *   head+6  ldrb r3,[r1,#0]; lsrs r6,r0,#4; eors r0,r3; ands r0,r5; lsls r0,r0,#2;
 *           ldr r0,[r0,r4]; lsrs r3,r3,#4; eors r6,r0; eors r3,r6; ands r3,r5;
 *           lsls r3,r3,#2; ldr r3,[r3,r4]; lsrs r0,r6,#4; eors r0,r3; adds r1,#1;
 *           b head                                   (2+1+1+1+1+2+1+1+1+1+1+2+1+1+1+2)
 * The buffer and the table are read where the core reads them: SRAM or the flash
 * (XIP), nothing else.
 */
const LFS_CRC = {
  name: 'lfs2_crc',
  code: [
    [0x00, [0x4291, 0xd100]],
    [0x06, [0x780b, 0x0906, 0x4058, 0x4028, 0x0080, 0x5900, 0x091b, 0x4046, 0x4073, 0x402b, 0x009b, 0x591b,
      0x0930, 0x4058, 0x3101, 0xe7ec]],
  ],
  instructions: 18,
  cycles: 23,
  turns(mcu, core, most) {
    const registers = core.registers;
    const end = registers[2];
    const table = registers[4];
    const mask = registers[5];
    let crc = registers[0];
    let at = registers[1];
    let r3 = 0;
    let r6 = 0;
    let previous = at;
    let taken = 0;
    const plain = (address, size) => (address >= 0x10000000 && address + size <= 0x10000000 + 0x200000)
      || (address >= SRAM_BASE && address + size <= SRAM_BASE + mcu.sram.length);
    while (taken < most && at !== end) {
      if (!plain(at, 1)) break;
      const byte = mcu.readUint8(at);
      const index1 = ((((crc ^ byte) >>> 0) & mask) << 2) >>> 0;
      const address1 = table + index1;
      if (!plain(address1, 4)) break;
      const entry1 = mcu.readUint32(address1);
      r6 = ((crc >>> 4) ^ entry1) >>> 0;
      const index2 = ((((byte >>> 4) ^ r6) & mask) << 2) >>> 0;
      const address2 = table + index2;
      if (!plain(address2, 4)) break;
      r3 = mcu.readUint32(address2);
      crc = ((r6 >>> 4) ^ r3) >>> 0;
      previous = at;
      at = (at + 1) >>> 0;
      taken++;
    }
    if (!taken) return 0;
    registers[0] = crc;
    registers[3] = r3;
    registers[6] = r6;
    registers[1] = core.addUpdateFlags(previous, 1);
    return taken;
  },
};

/**
 * The Display Pack driver's sync_rows (firmware/drivers/st7789.py, viper, frozen): the
 * inner `while i < end` that compares the picture (buf) with what the panel holds
 * (shadow) a word at a time.  At the head r4 = buf, r5 = shadow, [sp,#24] = i,
 * [sp,#20] = end, [sp,#16] = changed.  A turn whose loop goes on is 38 instructions and
 * 56 cycles when the word is the same, 48 and 74 when it differs (shadow[i] = w, its
 * push of i, changed = 1); either leaves [sp,#0] = i + 1, [sp,#12] = w,
 * [sp,#24] = i + 1, r0 = 1, r1 = i + 1, r2 = end, the flags of `cmp r0,#0`.
 */
const SYNC_ROWS = {
  name: 'sync_rows',
  code: [
    [0x00, [0x9806, 0x4601, 0x4620, 0x008a, 0x5880, 0x9003, 0x9806, 0x4601, 0x4628, 0x008a, 0x5880, 0x9000,
      0x9803, 0x4602, 0x9900, 0x4291, 0xd101, 0x2000, 0xe000, 0x2001, 0x2800, 0xd103, 0xe00e]],
    [0x34, [0x9803, 0x9000, 0x9806, 0x4601, 0x4628, 0x9a00, 0xb402, 0x0089, 0x5042, 0xbc02, 0x2001, 0x9004,
      0x9806, 0x2201, 0x4601, 0x1889, 0x4608, 0x9006, 0x9806, 0x9000, 0x9805, 0x4602, 0x9900, 0x4291, 0xdb01,
      0x2000, 0xe000, 0x2001, 0x2800, 0xd1c7]],
  ],
  run(mcu, core, budget, done) {
    const registers = core.registers;
    const view = mcu.sramView;
    const bytes = mcu.sram.length;
    const sp = registers[13] - SRAM_BASE;
    if (sp < 4 || sp + 28 > bytes) return;
    const buf = registers[4];
    const shadow = registers[5];
    let i = view.getUint32(sp + 24, true);
    const end = view.getUint32(sp + 20, true);
    let word = 0;
    let cycles = 0;
    let instructions = 0;
    let changed = false;
    while (cycles + 74 <= budget) {
      const next = (i + 1) >>> 0;
      if (!((next | 0) < (end | 0))) break; // cmp r1,r2; blt: the loop ends after this turn
      const offset = (i << 2) >>> 0;
      const from = buf + offset - SRAM_BASE;
      const to = shadow + offset - SRAM_BASE;
      if (from < 0 || from + 3 >= bytes || to < 0 || to + 3 >= bytes) break;
      if (to + 4 > sp - 4 && to < sp + 28) break; // shadow over the frame: the core does it
      const w = view.getUint32(from, true);
      if (view.getUint32(to, true) === w) {
        cycles += 56;
        instructions += 38;
      } else {
        view.setUint32(to, w, true);
        view.setUint32(sp - 4, i, true); // push {r1}
        changed = true;
        cycles += 74;
        instructions += 48;
      }
      word = w;
      i = next;
    }
    if (!cycles) return;
    view.setUint32(sp + 0, i, true);
    view.setUint32(sp + 12, word, true);
    view.setUint32(sp + 24, i, true);
    if (changed) view.setUint32(sp + 16, 1, true);
    registers[0] = 1;
    registers[1] = i;
    registers[2] = end;
    core.substractUpdateFlags(1, 0);
    done.cycles = cycles;
    done.instructions = instructions;
  },
};

/**
 * strlen (newlib's, as the rp2 port links it from arm-none-eabi-gcc's libc), its loop over
 * the string's words, two a turn: MicroPython measures the names of its frozen modules
 * (mp_find_frozen_module, at each import) and of its qstrs with it, a tenth of what a
 * boot runs.  At the head r3 = the word before the next two (aligned), r4 = 0x80808080;
 * a turn on two words without a zero byte (no bit of (w - 0x01010101) & ~w & r4 set,
 * the constant being the literal 0xfefefeff both halves load) is 14 instructions,
 * 19 cycles:
 *   head+0x00  ldr r1,[r3,#4]; ldr r2,[pc,#36]; adds r3,#4; adds r2,r1,r2; bics r2,r1;
 *              tst r2,r4; bne +0x20                                (2+2+1+1+1+1+1)
 *   head+0x0e  ldr r1,[r3,#4]; ldr r2,[pc,#20]; adds r3,#4; adds r2,r1,r2; bics r2,r1;
 *              tst r2,r4; beq head                                 (2+2+1+1+1+1+2)
 * and leaves r1 = the second word w, r2 = (w + 0xfefefeff) & ~w, r3 + 8, the C and V of
 * that addition, N clear and Z set (the tst).  The words are read where the core reads
 * them, SRAM or the flash (XIP), nothing else; a word with a zero byte (the string's
 * end, or a byte of 0x80 or more the test cannot tell from it) runs on the core.
 */
const STRLEN_WORDS = {
  name: 'strlen words',
  code: [
    [0x00, [0x6859, 0x4a09, 0x3304, 0x188a, 0x438a, 0x4222, 0xd108, 0x6859, 0x4a05, 0x3304, 0x188a, 0x438a, 0x4222,
      0xd0f1]],
    [0x28, [0xfeff, 0xfefe]],
  ],
  instructions: 14,
  cycles: 19,
  turns(mcu, core, most) {
    const registers = core.registers;
    const constant = 0xfefefeff;
    const mask = registers[4];
    const sramEnd = SRAM_BASE + mcu.sram.length;
    const plain = (address) => !(address & 3)
      && ((address >= FLASH_BASE && address + 4 <= FLASH_BASE + 0x200000) || (address >= SRAM_BASE && address + 4 <= sramEnd));
    let at = registers[3];
    let word = 0;
    let taken = 0;
    while (taken < most) {
      const first = (at + 4) >>> 0;
      const second = (at + 8) >>> 0;
      if (!plain(first) || !plain(second)) break;
      const w1 = mcu.readUint32(first);
      if ((((w1 + constant) >>> 0) & ~w1 & mask) !== 0) break; // bne: the first half ends the scan
      const w2 = mcu.readUint32(second);
      if ((((w2 + constant) >>> 0) & ~w2 & mask) !== 0) break; // no beq back: the second does
      word = w2;
      at = second;
      taken++;
    }
    if (!taken) return 0;
    registers[1] = word;
    registers[3] = at;
    registers[2] = core.addUpdateFlags(word, constant) & ~word; // adds r2,r1,r2: C and V; bics
    core.N = false; // tst r2,r4 found no bit: the beq back was taken
    core.Z = true;
    return taken;
  },
};

/** A loop whose every turn costs the same: run(..., budget) from its turns(..., most). */
function fixed(loop) {
  loop.run = (mcu, core, budget, done) => {
    const turns = loop.turns(mcu, core, Math.floor(budget / loop.cycles));
    done.cycles = turns * loop.cycles;
    done.instructions = turns * loop.instructions;
  };
  return loop;
}

const LOOPS = [fixed(GC_ALLOC_SCAN), fixed(MONO_FILL_COLUMN), fixed(MVLSB_FILL_ROW), fixed(EXPAND_GS4), fixed(LFS_CRC),
  SYNC_ROWS, fixed(STRLEN_WORDS)];

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

const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** The flash's halfwords, as the core reads them, in a Uint16Array (a view where it can be). */
function halfwords(flash, end) {
  const count = end >>> 1;
  if (LITTLE_ENDIAN && !(flash.byteOffset & 1)) return new Uint16Array(flash.buffer, flash.byteOffset, count);
  return Uint16Array.from({ length: count }, (_, k) => halfword(flash, 2 * k));
}

/**
 * The loops found in the flash: [{pc, loop}], each loop's head address (loop by loop,
 * each loop's heads in address order).  The candidates are found by the typed array's
 * own indexOf (native code): this runs at every boot, a page's Worker's too, before
 * V8 has optimized anything, and a JS loop over the 2 MB took a few tens of ms there.
 */
function find(flash, limit) {
  const end = Math.min(flash.length, limit || flash.length);
  const words = halfwords(flash, end);
  const found = [];
  for (const loop of LOOPS) {
    const [first, second] = loop.code[0][1];
    for (let k = words.indexOf(first); k >= 0 && 2 * k + 4 <= end; k = words.indexOf(first, k + 1)) {
      const at = 2 * k;
      if (words[k + 1] === second && codeAt(flash, loop, at)) found.push({ pc: FLASH_BASE + at, loop });
    }
  }
  return found;
}

module.exports = { LOOPS, find, codeAt, FLASH_BASE };
