// The Pico's flash as the RP2040 sees it: the NOR flash chip behind the SSI, the
// QSPI pins' chip select, and the UF2 loader.  No node or browser API here: the same
// module serves the node emulator (emulator.js) and the web page's Worker.
//
// Facts about the chip come from the RP2040 datasheet (SSI, IO_QSPI, flash commands
// of the W25Q16JV) and from reading the boot ROM's program_flash_generic.c.
'use strict';

const { BasePeripheral } = require('rp2040js');

const FLASH_BYTES = 2 * 1024 * 1024; // the Pico's W25Q16JV
const FLASH_BASE = 0x10000000;
const PAGE_BYTES = 256;
const SECTOR_BYTES = 4096;
// How long the chip stays busy (W25Q16JV datasheet, typical): the firmware waits on
// the status register meanwhile, with interrupts off.
const PROGRAM_NANOS = 400e3;
const SECTOR_ERASE_NANOS = 45e6;
const BLOCK_32K_ERASE_NANOS = 120e6;
const BLOCK_64K_ERASE_NANOS = 150e6;

// ----------------------------------------------------------------- UF2

/**
 * Copies the UF2's blocks (bytes: a Uint8Array) into the flash array at their target
 * addresses; `name` says which file in an error.
 */
function loadUf2(bytes, flash, name) {
  const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let blocks = 0;
  for (let offset = 0; offset + 512 <= bytes.length; offset += 512) {
    const magicStart0 = data.getUint32(offset, true);
    const magicStart1 = data.getUint32(offset + 4, true);
    const flags = data.getUint32(offset + 8, true);
    const target = data.getUint32(offset + 12, true);
    const size = data.getUint32(offset + 16, true);
    const magicEnd = data.getUint32(offset + 508, true);
    if (magicStart0 !== 0x0a324655 || magicStart1 !== 0x9e5d5157 || magicEnd !== 0x0ab16f30) {
      throw new Error(`${name}: block ${offset / 512} is not a UF2 block`);
    }
    if (flags & 1) continue; // "not main flash"
    const at = target - FLASH_BASE;
    if (at < 0 || at + size > FLASH_BYTES) {
      throw new Error(`${name}: block ${offset / 512} targets 0x${target.toString(16)}, outside the flash`);
    }
    flash.set(bytes.subarray(offset + 32, offset + 32 + size), at);
    blocks++;
  }
  if (!blocks) throw new Error(`${name}: no UF2 block for the flash`);
}


/**
 * The flash chip behind the SSI, one command per chip-select period: write enable,
 * page program, sector and block erase, reads, status, JEDEC and unique id.  Program
 * and erase act when chip select rises, as on the chip.  A power cut can be armed to
 * strike during the n-th program or erase from now: that operation is done only up
 * to a fraction of its bytes, then the power goes.
 */
class NorFlash {
  constructor(flash, onPowerCut, nanos) {
    this.flash = flash;
    this.onPowerCut = onPowerCut;
    this.nanos = nanos; // the simulated clock
    this.busyUntil = 0;
    this.busyNanos = 0; // total time spent programming and erasing
    this.writeEnabled = false;
    this.command = -1;
    this.received = []; // bytes after the command byte, this transaction
    this.programs = 0;
    this.erases = 0;
    this.programmedBytes = 0;
    this.cutCountdown = -1; // operations left before the one that is cut
    this.cutFraction = 0.5;
    this.cutKind = 'any';
    this.onWrite = null; // (address, bytes): told of every program and erase (the page's saving)
  }

  select() {
    this.command = -1;
    this.received.length = 0;
  }

  /** One byte in, one byte out (full duplex). */
  exchange(byte) {
    if (this.command < 0) {
      this.command = byte;
      if (byte === 0x06) this.writeEnabled = true;
      else if (byte === 0x04) this.writeEnabled = false;
      return 0xff;
    }
    const index = this.received.length;
    this.received.push(byte);
    switch (this.command) {
      case 0x05: // status 1: BUSY while a program or erase runs, WEL
        return (this.nanos() < this.busyUntil ? 0x01 : 0) | (this.writeEnabled ? 0x02 : 0);
      case 0x35: return 0x02; // status 2: quad enable set, so boot2 leaves it alone
      case 0x15: return 0x00;
      case 0x9f: return [0xef, 0x40, 0x15][index % 3]; // Winbond W25Q16JV
      case 0x4b: return index < 4 ? 0xff : 0xe6 + (index - 4); // unique id after 4 dummies
      case 0x03: return index < 3 ? 0xff : this.readAt(index - 3);
      case 0x0b: return index < 4 ? 0xff : this.readAt(index - 4);
      default: return 0xff;
    }
  }

  address() {
    const r = this.received;
    return ((r[0] << 16) | (r[1] << 8) | r[2]) % FLASH_BYTES;
  }

  readAt(offset) {
    return this.flash[(this.address() + offset) % FLASH_BYTES];
  }

  /** Chip select rose: program and erase take effect now. */
  deselect() {
    const command = this.command;
    this.command = -1;
    if (this.nanos() < this.busyUntil && command !== 0x05) {
      this.received.length = 0; // a busy chip ignores everything but the status read
      return;
    }
    if (command === 0x02 && this.received.length > 3) {
      if (this.writeEnabled) this.program(this.address(), this.received.slice(3));
      this.writeEnabled = false;
    } else if ((command === 0x20 || command === 0x52 || command === 0xd8) && this.received.length >= 3) {
      if (this.writeEnabled) {
        const size = command === 0x20 ? SECTOR_BYTES : command === 0x52 ? 32768 : 65536;
        this.erase(this.address() - (this.address() % size), size);
      }
      this.writeEnabled = false;
    } else if (command === 0x60 || command === 0xc7) {
      this.writeEnabled = false; // chip erase: never sent by the firmware, refused here
    }
    this.received.length = 0;
  }

  busy(nanos) {
    this.busyUntil = this.nanos() + nanos;
    this.busyNanos += nanos;
  }

  /** Is this operation (a 'program' or an 'erase') the one the armed power cut strikes? */
  strikes(kind) {
    if (this.cutCountdown < 0) return false;
    if (this.cutKind !== 'any' && this.cutKind !== kind) return false;
    if (this.cutCountdown === 0) return true;
    this.cutCountdown--;
    return false;
  }

  program(address, data) {
    this.programs++;
    const cut = this.strikes('program');
    const count = cut ? Math.floor(data.length * this.cutFraction) : data.length;
    const page = address - (address % PAGE_BYTES);
    for (let i = 0; i < count; i++) {
      const at = page + (((address % PAGE_BYTES) + i) % PAGE_BYTES); // wraps in the page
      this.flash[at] &= data[i]; // programming only clears bits
    }
    this.programmedBytes += count;
    if (this.onWrite) this.onWrite(page, PAGE_BYTES);
    this.busy(PROGRAM_NANOS);
    if (cut) this.onPowerCut(`program of ${data.length} bytes at 0x${address.toString(16)} cut after ${count}`);
  }

  erase(address, size) {
    this.erases++;
    const cut = this.strikes('erase');
    const count = cut ? Math.floor(size * this.cutFraction) : size;
    this.flash.fill(0xff, address, address + count);
    if (this.onWrite) this.onWrite(address, size);
    this.busy(size === SECTOR_BYTES ? SECTOR_ERASE_NANOS : size === 32768 ? BLOCK_32K_ERASE_NANOS : BLOCK_64K_ERASE_NANOS);
    if (cut) this.onPowerCut(`erase of ${size} bytes at 0x${address.toString(16)} cut after ${count}`);
  }
}

/** The SSI as the flash routines use it: a byte written to DR0 is a byte exchanged. */
class FlashSsi extends BasePeripheral {
  constructor(rp2040, chip, chipSelect) {
    super(rp2040, 'SSI');
    this.chip = chip;
    this.chipSelect = chipSelect;
    this.registers = new Map();
    this.received = [];
    this.inTransfer = false; // for chip select driven by the SSI itself
  }

  readUint32(offset) {
    switch (offset) {
      case 0x20: return 0; // TXFLR: sent at once
      case 0x24: return this.received.length; // RXFLR
      case 0x28: // SR: transmit FIFO empty and not full, receive FIFO not empty when so
        if (!this.chipSelect.forced && this.inTransfer) {
          // The SSI raises its own chip select once its FIFO ran empty; code
          // polls SR only after it has queued the whole command.
          this.inTransfer = false;
          this.chip.deselect();
        }
        return 0x06 | (this.received.length ? 0x08 : 0);
      case 0x58: return 0x51535049; // IDR
      case 0x5c: return 0x3430312a; // SSI_COMP_VERSION
      case 0x60: return this.received.length ? this.received.shift() : 0;
      default: return this.registers.get(offset) || 0;
    }
  }

  writeUint32(offset, value) {
    if (offset === 0x60) {
      if (!this.chipSelect.forced && !this.inTransfer) {
        this.inTransfer = true;
        this.chip.select();
      }
      this.received.push(this.chipSelect.low() ? this.chip.exchange(value & 0xff) : 0xff);
      if (this.received.length > 64) this.received.shift();
      return;
    }
    if (offset === 0x08 && !(value & 1)) { // SSIENR cleared: FIFOs flushed, transfer over
      this.received.length = 0;
      if (this.inTransfer) {
        this.inTransfer = false;
        this.chip.deselect();
      }
    }
    this.registers.set(offset, value);
  }
}

/** IO_QSPI: the flash pins' controls; only the SS output override matters here. */
class QspiPins extends BasePeripheral {
  constructor(rp2040, chip) {
    super(rp2040, 'IO_QSPI');
    this.chip = chip;
    this.controls = new Uint32Array(6);
    this.forced = false;
    this.forcedLow = false;
  }

  low() {
    return this.forced ? this.forcedLow : true;
  }

  readUint32(offset) {
    if (offset < 0x30) {
      if (offset & 4) return this.controls[offset >> 3]; // CTRL
      // STATUS: SS reads high from its pad (the BOOTSEL button is not pressed)
      return offset === 0x08 && !(this.forced && this.forcedLow) ? 1 << 17 : 0;
    }
    return 0; // INTR and friends: no edge ever seen (the ROM reads it to detect an abort)
  }

  writeUint32(offset, value) {
    if (offset >= 0x30 || !(offset & 4)) return;
    this.controls[offset >> 3] = value;
    if (offset === 0x0c) { // GPIO_QSPI_SS_CTRL
      const override = (value >> 8) & 3;
      const wasForcedLow = this.forced && this.forcedLow;
      this.forced = override === 2 || override === 3;
      this.forcedLow = override === 2;
      const isForcedLow = this.forced && this.forcedLow;
      if (isForcedLow && !wasForcedLow) this.chip.select();
      else if (wasForcedLow && !isForcedLow) this.chip.deselect();
    }
  }
}

/**
 * VREG_AND_CHIP_RESET: plain registers.  rp2040js leaves the block unimplemented and
 * reads it as all ones, so the boot ROM would see CHIP_RESET.PSM_RESTART_FLAG (a
 * debugger asking for rescue mode) and halt; after power-on it reads zero.
 */
class ChipResetRegisters extends BasePeripheral {
  constructor(rp2040) {
    super(rp2040, 'VREG_AND_CHIP_RESET');
    this.values = new Map();
  }

  readUint32(offset) {
    return this.values.get(offset) || 0;
  }

  writeUint32(offset, value) {
    this.values.set(offset, value);
  }
}

module.exports = {
  FLASH_BYTES, FLASH_BASE, PAGE_BYTES, SECTOR_BYTES,
  loadUf2, NorFlash, FlashSsi, QspiPins, ChipResetRegisters,
};
