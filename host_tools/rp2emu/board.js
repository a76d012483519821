// The emulated Pico on a board: rp2040js's RP2040 with the flash chip (flash.js), the
// USB CDC, the display buses timed at their clocks, the buttons' pins and the watchdog
// reboot.  No node or browser API here: what the board does is told to a listener,
// and the node emulator (emulator.js) and the web page's Worker each bring their own.
//
// The listener's methods (each optional):
//   usbConnected(micros)                 the host opened the USB CDC
//   serial(bytes)                        the device wrote to its USB serial
//   i2c(micros, bytes)                   one write transfer to the display's address
//   spi(micros, level, duty, bytes)      display bytes sent at one D/C level; backlight duty
//   pictureDone(micros)                  the core slept after display traffic: the picture is whole
//   reboot(micros)                       the watchdog rebooted the chip (machine.reset())
//   powerCut(micros, what)               an armed power cut struck (the chip is stopped)
//   flashWrite(address, bytes)           the device programmed or erased that range
'use strict';

const { RP2040, USBCDC, ConsoleLogger, LogLevel } = require('rp2040js');
const { FLASH_BYTES, NorFlash, FlashSsi, QspiPins, ChipResetRegisters } = require('./flash');
const { ButtonPins } = require('./buttons');
const fastcore = require('./fastcore');
const fastmemory = require('./fastmemory');
const hotloops = require('./hotloops');

const CYCLE_NANOS = 1e9 / 125e6;
const SRAM_BASE = 0x20000000;
// DMA channel CTRL bits (RP2040 datasheet, 2.5.7)
const DMA_EN = 1 << 0;
const DMA_INCR_READ = 1 << 4;
const DMA_INCR_WRITE = 1 << 5;
const DMA_IRQ_QUIET = 1 << 21;
const DMA_BUSY = 1 << 24;

class Board {
  /**
   * options: bootrom (Uint32Array), image (Uint8Array, the flash's content at power-on:
   * kept by the board from then on), buttons (GPIO numbers), i2cAddress (-1: none),
   * spiDataCommand, spiChipSelect, backlight (-1: none).
   */
  constructor(options, listener) {
    this.options = options;
    this.listener = listener || {};
    this.bootrom = options.bootrom;
    this.image = options.image;
    if (this.image.length !== FLASH_BYTES) throw new Error(`a flash image is ${FLASH_BYTES} bytes`);
    this.buttons = new ButtonPins(options.buttons || []);
    this.hostBytes = []; // from the host, waiting for the device to read them
    this.pendingRead = null; // the device's OUT endpoint read, when nothing was there
    this.poweredOff = false;
    this.paused = false;
    this.boots = 0;
    this.sleeps = 0; // the times the core went to sleep (WFI/WFE) after running: its wake-ups
    this.sleptAt = -1; // the core's cycle count when it last went to sleep
    this.sleptNanos = 0; // simulated time the core spent asleep (WFI/WFE), every chip of the board's
    this.cutArmed = null;
    this.statistics = { programs: 0, erases: 0, programmedBytes: 0 };
    this.marks = new Map(); // id -> simulated micros, for the marks still to come
    this.flushSpi = null;
    this.powerOn();
  }

  tell(method, ...values) {
    const listener = this.listener;
    if (listener[method]) listener[method](...values);
  }

  powerOn() {
    this.polling = false; // the core reads a bus's status until the bus's next event (watchPolling)
    this.displaySent = false; // display bytes went out since the core last slept (pictureDone)
    this.pwmAlarms = null; // the new chip's PWM alarms (nextWakeNanos)
    const mcu = new RP2040();
    mcu.logger = new ConsoleLogger(LogLevel.Error);
    // rp2040js's decoder with its tests chosen by a table (fastcore.js): the same instructions
    if (!this.options.plainCore) {
      mcu.core.executeInstruction = fastcore.executeInstruction;
      // A word stored in SRAM: rp2040js looks for a peripheral at the address first (none
      // is mapped at 0x20000000-0x20041fff), then stores it as here.
      const sram = mcu.sramView;
      const sramBytes = mcu.sram.length;
      const writeUint32 = mcu.writeUint32.bind(mcu);
      mcu.writeUint32 = (address, value) => {
        const at = (address >>> 0) - SRAM_BASE;
        if (at >= 0 && at + 3 < sramBytes) sram.setUint32(at, value, true);
        else writeUint32(address, value);
      };
      fastmemory.install(mcu); // the core's loads, stores and fetches of SRAM and flash
    }
    mcu.loadBootrom(this.bootrom); // resets, which erases rp2040js's flash array
    mcu.flash.set(this.image);
    this.image = null;
    // the firmware's hot loops (hotloops.js), by their heads' addresses
    this.hotLoops = new Map();
    if (!this.options.plainCore && !this.options.noHotLoops) {
      for (const { pc, loop } of hotloops.find(mcu.flash.subarray(0, FLASH_BYTES))) this.hotLoops.set(pc, loop);
    }
    this.hotCounts = new Map(); // instructions run at once, by loop name (speed.js reports them)
    this.hotDone = { cycles: 0, instructions: 0 };
    this.hotMarks = new Uint8Array(65536); // at (pc >>> 1) & 0xffff: a hot loop's head may be there
    for (const pc of this.hotLoops.keys()) this.hotMarks[(pc >>> 1) & 0xffff] = 1;
    const chip = new NorFlash(mcu.flash, (what) => this.powerCut(what), () => mcu.clock.nanos);
    chip.onWrite = (address, bytes) => this.tell('flashWrite', address, bytes);
    if (this.cutArmed) {
      chip.cutCountdown = this.cutArmed.countdown;
      chip.cutFraction = this.cutArmed.fraction;
      this.cutArmed = null;
    }
    const pins = new QspiPins(mcu, chip);
    mcu.peripherals[0x18000] = new FlashSsi(mcu, chip, pins);
    mcu.peripherals[0x40018] = pins;
    mcu.peripherals[0x40064] = new ChipResetRegisters(mcu);
    mcu.peripherals[0x40058].onWatchdogTrigger = () => this.reboot();
    this.mcu = mcu;
    this.chip = chip;
    // The QSPI pads come out of reset with their inputs enabled (datasheet, PADS_QSPI);
    // rp2040js starts them disabled.  The boot ROM samples CS: high means no BOOTSEL.
    for (const pin of mcu.qspi) pin.padValue |= 0x40;
    mcu.qspi[1].setInputValue(true); // flash CS pulled up: the BOOTSEL button is not pressed
    this.buttons.attach(mcu);
    this.attachUsb();
    this.attachI2c();
    this.attachSpi();
    mcu.core.reset(); // from the boot ROM's reset vector
    this.boots++;
  }

  /**
   * The core is asleep: counted once per sleep (a still screen's cost is its wake-ups),
   * and a picture sent since it last slept is whole (pictureDone).
   */
  fellAsleep(core) {
    if (core.cycles !== this.sleptAt) {
      this.sleptAt = core.cycles;
      this.sleeps++;
    }
    if (this.displaySent) this.pictureDone();
  }

  /** The flash as the chip holds it now (the array itself, not a copy). */
  flash() {
    return this.mcu.flash.subarray(0, FLASH_BYTES);
  }

  nanos() {
    return this.mcu.clock.nanos;
  }

  micros() {
    return Math.floor(this.mcu.clock.nanos / 1000);
  }

  /**
   * Runs the core for about `budget` instructions (less if the power goes).
   *
   * Both run loops step the clock past an instruction themselves when no alarm falls
   * due within it, and call clock.tick (which fires the alarms) only when one does:
   * the same arithmetic as ticking after every instruction, so simulated time is
   * unchanged, and the emulator spends its time in this loop: the call per instruction
   * was 3 to 12% of a game played on it (the two loops run side by side, same game).
   */
  run(budget) {
    const mcu = this.mcu;
    const clock = mcu.clock;
    const core = mcu.core;
    const hotMarks = this.hotMarks;
    this.polling = false; // the host may have raised an interrupt between two runs (a USB byte)
    for (let i = 0; i < budget && !this.poweredOff && this.mcu === mcu; i++) {
      if (core.waiting || this.polling) {
        const asleep = core.waiting;
        if (asleep) this.fellAsleep(core);
        this.polling = false;
        const wait = clock.nanosToNextAlarm;
        if (asleep) this.sleptNanos += wait;
        clock.tick(wait);
        i += wait / CYCLE_NANOS;
        continue;
      }
      if (hotMarks[(core.registers[15] >>> 1) & 0xffff] !== 0) {
        const done = this.hotTurns(Infinity);
        if (done) {
          i += done - 1;
          continue;
        }
      }
      const delta = core.executeInstruction() * CYCLE_NANOS;
      const after = clock.nanosCounter + delta;
      const alarm = clock.nextAlarm;
      if (alarm !== null && alarm.nanos <= after) {
        clock.tick(delta);
        this.polling = false; // what fell due may have ended the wait or raised an interrupt
      } else clock.nanosCounter = after;
    }
  }

  /**
   * Runs the core until simulated time reaches `nanos` or about `budget` instructions
   * were run, whichever is first: an idle core sleeps to its next alarm, but never past
   * `nanos` (a page keeps simulated time with the wall clock's).  A core asleep with no
   * alarm set (MicroPython's REPL waiting for a byte from the host) sleeps to `nanos`:
   * time goes on for a sleeping chip, and whoever waits for a quiet moment of simulated
   * time (the page's idle) would otherwise wait for ever.
   */
  runUntil(nanos, budget) {
    const mcu = this.mcu;
    const clock = mcu.clock;
    const core = mcu.core;
    const hotMarks = this.hotMarks;
    this.polling = false; // the host may have raised an interrupt between two runs (a USB byte)
    for (let i = 0; i < budget && !this.poweredOff && this.mcu === mcu && clock.nanos < nanos; i++) {
      if (core.waiting || this.polling) {
        const asleep = core.waiting;
        if (asleep) this.fellAsleep(core);
        this.polling = false;
        const left = nanos - clock.nanos;
        const wait = clock.nextAlarm ? Math.min(clock.nanosToNextAlarm, left) : left;
        if (asleep) this.sleptNanos += wait;
        clock.tick(wait);
        i += wait / CYCLE_NANOS;
        continue;
      }
      if (hotMarks[(core.registers[15] >>> 1) & 0xffff] !== 0) {
        const done = this.hotTurns(nanos);
        if (done) {
          i += done - 1;
          continue;
        }
      }
      const delta = core.executeInstruction() * CYCLE_NANOS;
      const after = clock.nanosCounter + delta;
      const alarm = clock.nextAlarm;
      if (alarm !== null && alarm.nanos <= after) {
        clock.tick(delta);
        this.polling = false; // what fell due may have ended the wait or raised an interrupt
      } else clock.nanosCounter = after;
    }
  }

  /**
   * At a hot loop's head (hotloops.js): its plain turns at once, each ending before the
   * next alarm and before `limit` (simulated nanos), so no alarm falls due and no
   * interrupt comes within them, as instruction by instruction; none while an interrupt
   * may be pending (the core looks for one before its next instruction).  Returns the
   * instructions those turns stand for (0: none taken, the core runs the head itself).
   */
  hotTurns(limit) {
    const mcu = this.mcu;
    const core = mcu.core;
    const loop = this.hotLoops.get(core.PC);
    if (loop === undefined || core.interruptsUpdated || core.waiting) return 0;
    if (!hotloops.codeAt(mcu.flash, loop, core.PC - hotloops.FLASH_BASE)) return 0; // the flash changed
    const clock = mcu.clock;
    const alarm = clock.nextAlarm;
    const until = alarm !== null && alarm.nanos < limit ? alarm.nanos : limit;
    // the cycles the turns may take: they end before `until`
    const budget = until === Infinity ? 1e7 : Math.ceil((until - clock.nanosCounter) / CYCLE_NANOS) - 1;
    if (budget <= 0) return 0;
    const done = this.hotDone;
    done.cycles = 0;
    done.instructions = 0;
    loop.run(mcu, core, budget, done);
    if (!done.cycles) return 0;
    this.hotCounts.set(loop.name, (this.hotCounts.get(loop.name) || 0) + done.instructions);
    core.cycles += done.cycles;
    clock.nanosCounter += done.cycles * CYCLE_NANOS;
    return done.instructions;
  }

  /**
   * The firmware draws a picture in one go: the driver's show() sends its bytes
   * (bands, runs of rows, pages) with only its own work in between, waiting for each
   * transfer by polling, never asleep; the app sleeps (WFE) once show() returned.  So
   * the core's first sleep after display traffic is the moment the picture is whole:
   * listener.pictureDone(micros).  (A bus merely quiet for a while can be the middle
   * of a long picture on a slow emulation; this cannot.)
   */
  pictureDone() {
    this.displaySent = false;
    this.tell('pictureDone', this.micros());
  }

  /**
   * Simulated nanos of the next alarm that can change what the chip does, or null: a
   * caller that waits in real time for it (the page's Worker) skips the PWM's alarms
   * while no PWM interrupt is enabled (they toggle an output pin, the backlight's, a
   * thousand times a second, and nothing reads it).
   */
  nextWakeNanos() {
    const mcu = this.mcu;
    let quiet = this.pwmAlarms;
    if (!quiet) {
      quiet = this.pwmAlarms = new Set();
      for (const channel of mcu.pwm.channels) {
        for (const alarm of [channel.alarmA, channel.alarmB, channel.alarmBottom]) quiet.add(alarm.clockAlarm);
      }
    }
    const skip = !(mcu.pwm.intEnable || mcu.pwm.intForce);
    for (let alarm = mcu.clock.nextAlarm; alarm; alarm = alarm.next) {
      if (!skip || !quiet.has(alarm)) return alarm.nanos;
    }
    return null;
  }

  at(micros, action) {
    const delay = Math.max(0, micros * 1000 - this.nanos());
    this.mcu.clock.createAlarm(action).schedule(delay);
  }

  after(nanos, action) {
    this.mcu.clock.createAlarm(action).schedule(nanos);
  }

  /** Calls listener.mark(id, micros) once simulated time gets to micros (across reboots). */
  mark(micros, id) {
    this.marks.set(id, micros);
    this.at(micros, () => {
      if (this.marks.delete(id)) this.tell('mark', id, this.micros());
    });
  }

  /** A button's pin driven now: pressed pulls it low, released lets the pull-up raise it. */
  setButton(gpio, pressed) {
    this.buttons.set(gpio, pressed);
  }

  // -- USB CDC
  attachUsb() {
    const cdc = new USBCDC(this.mcu.usbCtrl);
    const usb = this.mcu.usbCtrl;
    const cdcRead = usb.onEndpointRead;
    usb.onEndpointRead = (endpoint, size) => {
      if (endpoint !== cdc.outEndpoint) {
        cdcRead(endpoint, size);
        return;
      }
      if (!this.hostBytes.length) {
        this.pendingRead = { endpoint, size }; // answered when the host sends something
        return;
      }
      this.deliver(endpoint, size);
    };
    cdc.onDeviceConnected = () => this.tell('usbConnected', this.micros());
    cdc.onSerialData = (buffer) => this.tell('serial', buffer);
    this.cdc = cdc;
    this.pendingRead = null;
  }

  deliver(endpoint, size) {
    const count = Math.min(size, this.hostBytes.length);
    const buffer = Uint8Array.from(this.hostBytes.splice(0, count));
    this.mcu.usbCtrl.endpointReadDone(endpoint, buffer);
  }

  /** Bytes from the host to the device's USB serial (queued until it reads them). */
  fromHost(data) {
    for (const byte of data) this.hostBytes.push(byte);
    if (this.pendingRead) {
      const { endpoint, size } = this.pendingRead;
      this.pendingRead = null;
      this.deliver(endpoint, size);
    }
  }

  // -- displays
  /**
   * The firmware waits for each byte it sends on the display's I2C bus in a loop that
   * reads one status register until the byte is out (pico-sdk's blocking write): a
   * tenth of all the instructions run in a game.  Two reads in a row by one instruction
   * that find the same value while the bus has a byte on the wire mark the core as
   * polling, and the run loops sleep it to the next alarm as they sleep a core waiting
   * for an interrupt.  The bus's status changes only at an alarm (the byte's end, one
   * byte's time away); an alarm that falls due within the very instruction that read
   * (the byte's end, a pin's edge) ends the mark, as does the start of every run (the
   * host may have sent a USB byte): the core reads again, or takes its interrupt, at
   * once.  Otherwise a byte ending there slept the core to the next alarm, up to a
   * press away, stalling a transfer that has 50 ms to finish.  The timer the loop also
   * reads, for a timeout of milliseconds,
   * is read again after the sleep: simulated time and what the firmware does are the
   * same, without running the loop's turns (the same game leaves the same state and the
   * same pictures either way).
   */
  watchPolling(peripheral, busy) {
    const core = this.mcu.core;
    const read = peripheral.readUint32.bind(peripheral);
    const write = peripheral.writeUint32.bind(peripheral);
    let lastPc = -1;
    let lastOffset = -1;
    let lastValue = -1;
    peripheral.readUint32 = (offset) => {
      const value = read(offset);
      const pc = core.PC;
      if (pc === lastPc && offset === lastOffset && value === lastValue && busy()) this.polling = true;
      lastPc = pc;
      lastOffset = offset;
      lastValue = value;
      return value;
    };
    peripheral.writeUint32 = (offset, value) => {
      lastPc = -1;
      write(offset, value);
    };
  }

  attachI2c() {
    const address = this.options.i2cAddress;
    if (address === undefined || address < 0) return;
    for (const bus of this.mcu.i2c) {
      let transfer = null;
      let onTheWire = 0; // the bus's events scheduled and not yet done
      const later = (nanos, action) => {
        onTheWire++;
        this.after(nanos, () => {
          onTheWire--;
          action();
        });
      };
      this.watchPolling(bus, () => onTheWire > 0);
      const flushTransfer = () => {
        if (transfer && transfer.length) {
          this.displaySent = true;
          this.tell('i2c', this.micros(), Uint8Array.from(transfer));
        }
        transfer = null;
      };
      const byteNanos = () => { // 8 bits and the ACK at SCL's period, counted in clk_sys cycles
        const period = bus.sclLowPeriod + bus.sclHighPeriod;
        return period > 0 ? (9 * period * 1e9) / this.mcu.clkSys : 22500;
      };
      bus.onStart = () => {
        flushTransfer();
        bus.completeStart();
      };
      bus.onConnect = (target, mode) => {
        const ack = target === address;
        if (ack && mode === 0) transfer = [];
        later(byteNanos(), () => bus.completeConnect(ack));
      };
      bus.onWriteByte = (value) => {
        if (transfer) transfer.push(value);
        later(byteNanos(), () => bus.completeWrite(transfer !== null));
      };
      bus.onReadByte = () => later(byteNanos(), () => bus.completeRead(0));
      bus.onStop = () => {
        flushTransfer();
        bus.completeStop();
      };
    }
  }

  attachSpi() {
    const { spiDataCommand, spiChipSelect } = this.options;
    if (spiDataCommand === undefined || spiDataCommand < 0) return;
    this.bursts = 0; // DMA transfers to a display bus under way (burst)
    for (const bus of this.mcu.spi) {
      let level = -1;
      let bytes = [];
      let started = 0;
      const flushBytes = () => {
        if (bytes.length) {
          this.displaySent = true;
          this.tell('spi', started, level, this.backlightDuty(), Uint8Array.from(bytes));
        }
        bytes = [];
      };
      this.flushSpi = flushBytes;
      /** One byte on the wire: the display sees it when its chip select is low. */
      const take = (value) => {
        const gpio = this.mcu.gpio;
        if (spiChipSelect >= 0 && gpio[spiChipSelect].outputValue) return;
        const dataCommand = gpio[spiDataCommand].outputValue ? 1 : 0;
        if (dataCommand !== level || bytes.length >= 16384) {
          flushBytes();
          level = dataCommand;
          started = this.micros();
        }
        bytes.push(value & 0xff);
      };
      const byteNanos = () => (8 * 1e9) / (bus.clockFrequency || 1e6);
      bus.onTransmit = (value) => {
        take(value);
        this.after(byteNanos(), () => {
          bus.completeTransmit(0);
          if (bus.txFIFO.empty && bytes.length) flushBytes();
        });
      };
      this.burstOnDma(bus, take, flushBytes, byteNanos);
    }
    this.watchPolling(this.mcu.dma, () => this.bursts > 0);
  }

  /**
   * The display's picture goes out by DMA (MicroPython's SPI write of 32 bytes or more:
   * one channel feeds the transmit FIFO at its DREQ, one empties the receive FIFO, and
   * the core polls the second until it is done).  Modelled byte by byte that is three
   * alarms per byte, and 64,800 bytes a picture on the Display Pack: most of what the
   * emulation of a press cost.  A burst takes the channel's bytes at its start, keeps
   * the channel and the bus busy for the time the bytes take on the wire at the bus's
   * clock, and ends both channels at one alarm (the receive side's zeros written where
   * its channel points), as the hardware would leave them; the core that polls the
   * channel meanwhile sleeps to that alarm (watchPolling).  The same bytes reach the
   * display at the same D/C level, in the same simulated time.  It applies only to
   * the plain case (8-bit, reads incrementing into the bus's data register, no ring,
   * the bus idle), the rest goes byte by byte.  The bytes are read when the transfer
   * starts: the core that started it waits for its end, as MicroPython's does.
   */
  burstOnDma(bus, take, flushBytes, byteNanos) {
    const mcu = this.mcu;
    const dma = mcu.dma;
    const key = Object.keys(mcu.peripherals).find((k) => mcu.peripherals[k] === bus);
    const dataRegister = Number(key) * 0x1000 + 0x008; // SSPDR
    const finish = (channel) => {
      channel.ctrl &= ~DMA_BUSY;
      if (!(channel.ctrl & DMA_IRQ_QUIET)) {
        dma.intRaw |= 1 << channel.index;
        dma.checkInterrupts();
      }
      if (channel.chainTo !== channel.index && dma.channels[channel.chainTo]) dma.channels[channel.chainTo].start();
    };
    const plain = (channel, dreq, address, increment) => channel.treq === dreq && channel.dataSize === 1
      && !channel.ringMask && (address === null || channel.writeAddr === address)
      && !!(channel.ctrl & DMA_INCR_READ) === increment;
    for (const channel of dma.channels) {
      const start = channel.start.bind(channel);
      const scheduleTransfer = channel.scheduleTransfer.bind(channel);
      const abort = channel.abort.bind(channel);
      channel.scheduleTransfer = () => {
        if (!channel.burst) scheduleTransfer();
      };
      channel.abort = () => {
        if (channel.burst) {
          channel.burst.cancel();
          channel.burst = null;
          bus.busy = false;
          this.bursts--;
        }
        abort();
      };
      channel.start = () => {
        const ctrl = channel.ctrl;
        const count = channel.transCountReload;
        if (!(ctrl & DMA_EN) || (ctrl & DMA_BUSY) || !count || !plain(channel, bus.dreq.tx, dataRegister, true)
            || (channel.ctrl & DMA_INCR_WRITE) || !bus.enabled || bus.busy || !bus.txFIFO.empty || bus.dataBits !== 8) {
          start();
          return;
        }
        channel.ctrl |= DMA_BUSY;
        channel.transCount = count;
        bus.busy = true; // SSPSR reads BSY until the last byte is out
        this.bursts++;
        for (let i = 0; i < count; i++) take(mcu.readUint8(channel.readAddr + i));
        channel.burst = mcu.clock.createAlarm(() => {
          channel.burst = null;
          this.bursts--;
          channel.readAddr += count;
          channel.transCount = 0;
          let left = count; // the bytes the receive FIFO got, one per byte sent
          for (const rx of dma.channels) {
            if (!left || !rx.active || rx.burst || !plain(rx, bus.dreq.rx, null, false)) continue;
            const taken = Math.min(rx.transCount, left);
            for (let i = 0; i < taken; i++) {
              mcu.writeUint8(rx.writeAddr, 0);
              if (rx.ctrl & DMA_INCR_WRITE) rx.writeAddr += 1;
            }
            rx.transCount -= taken;
            left -= taken;
            if (!rx.transCount) finish(rx);
          }
          for (; left > 0; left--) { // what no channel took stays in the FIFO; past 8, an overrun
            if (!bus.rxFIFO.full) bus.rxFIFO.push(0);
            else bus.intRaw |= 1; // SSPRORINTR
          }
          bus.busy = false;
          flushBytes();
          finish(channel);
          bus.fifosUpdated();
          bus.doTX();
        });
        channel.burst.schedule(count * byteNanos());
      };
    }
  }

  /** Duty 0..65535 on the backlight pin's PWM output, or -1 when no PWM drives it. */
  backlightDuty() {
    const pin = this.options.backlight;
    if (pin === undefined || pin < 0) return -1;
    const gpio = this.mcu.gpio[pin];
    if (gpio.functionSelect !== 4) return gpio.outputValue ? 65535 : 0;
    const channel = this.mcu.pwm.channels[(pin >> 1) & 7];
    if (!(channel.csr & 1)) return 0;
    const b = pin & 1;
    const compare = b ? channel.cc >>> 16 : channel.cc & 0xffff;
    let duty = Math.min(65535, Math.round((compare * 65535) / (channel.top + 1)));
    if (channel.csr & (b ? 8 : 4)) duty = 65535 - duty;
    return duty;
  }

  // -- power
  reboot() {
    // machine.reset(): the watchdog resets the chip; the flash keeps its content.
    this.image = Uint8Array.from(this.mcu.flash.subarray(0, FLASH_BYTES));
    this.saveStatistics();
    this.pendingRead = null;
    this.hostBytes.length = 0;
    const micros = this.micros();
    this.powerOn();
    // The new chip's clock starts at zero and the old clock's alarms are gone with it: a
    // mark still to come is kept, as far ahead on the new clock (the controller may be
    // waiting for it across the reboot, e.g. after mpremote's delayed reset).
    const pending = [...this.marks];
    this.marks.clear();
    for (const [id, at] of pending) this.mark(Math.max(0, at - micros), id);
    this.tell('reboot', micros);
  }

  saveStatistics() {
    this.statistics.programs += this.chip.programs;
    this.statistics.erases += this.chip.erases;
    this.statistics.programmedBytes += this.chip.programmedBytes;
  }

  /** The flash operations (programs, erases, bytes programmed) since the last call. */
  takeStatistics() {
    this.saveStatistics();
    const taken = this.statistics;
    this.statistics = { programs: 0, erases: 0, programmedBytes: 0 };
    this.chip.programs = this.chip.erases = this.chip.programmedBytes = 0;
    return taken;
  }

  powerCut(what) {
    if (this.poweredOff) return;
    this.poweredOff = true;
    this.tell('powerCut', this.micros(), what);
  }
}

module.exports = { Board, CYCLE_NANOS };
