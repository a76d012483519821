// The board's buttons on GPIO pins: each pulls its pin to ground when pressed; the
// pin's pull-up raises it when released.  A button held across a reboot stays low,
// as a finger on a real board would keep it.
'use strict';

class ButtonPins {
  constructor(pins) {
    this.pins = pins.slice();
    this.held = new Set(); // GPIO numbers held down now
    this.mcu = null;
  }

  /** A chip (just powered on) gets the pins' levels. */
  attach(mcu) {
    this.mcu = mcu;
    for (const pin of this.pins) mcu.gpio[pin].setInputValue(!this.held.has(pin));
  }

  set(pin, pressed) {
    if (!this.pins.includes(pin)) throw new Error(`GPIO ${pin} is not a button of this board`);
    if (pressed) this.held.add(pin);
    else this.held.delete(pin);
    if (this.mcu) this.mcu.gpio[pin].setInputValue(!pressed);
  }
}

module.exports = { ButtonPins };
