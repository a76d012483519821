// The display's glass on a canvas, one canvas pixel per panel pixel (CSS scales it up
// without smoothing): the OLED's lit pixels white with a touch of blue on black, dimmer
// at a lower contrast; the Display Pack's RGB565 colours under its backlight.
'use strict';

const OLED_LIT = [0xdf, 0xf0, 0xff]; // a white OLED module's pixel, as the eye sees it

class Glass {
  constructor(canvas, width, height) {
    this.canvas = canvas;
    canvas.width = width;
    canvas.height = height;
    this.context = canvas.getContext('2d');
    this.image = this.context.createImageData(width, height);
    this.width = width;
    this.height = height;
    this.last = null; // {kind, data}: the frame drawn last (for the test hook)
    this.tables = null; // RGB565 channel values to 8 bits, at tableBrightness
    this.tableBrightness = -1;
  }

  /** kind: "mono" (MONO_VLSB bytes) or "rgb565" (big-endian, row-major). */
  draw(kind, data, brightness) {
    const pixels = this.image.data;
    const { width, height } = this;
    if (kind === 'mono') {
      const level = brightness / 255;
      const lit = OLED_LIT.map((c) => Math.round(c * level));
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const on = (data[(y >> 3) * width + x] >> (y & 7)) & 1;
          const o = (y * width + x) * 4;
          pixels[o] = on ? lit[0] : 0;
          pixels[o + 1] = on ? lit[1] : 0;
          pixels[o + 2] = on ? lit[2] : 0;
          pixels[o + 3] = 255;
        }
      }
    } else {
      // the eye's brightness under the backlight's PWM duty (0..65535), as a table per channel
      if (brightness !== this.tableBrightness) {
        const level = Math.sqrt(brightness / 65535);
        const table = (bits) => Uint8Array.from({ length: 1 << bits }, (_, v) => Math.round((v * 255 / ((1 << bits) - 1)) * level));
        this.tables = [table(5), table(6)];
        this.tableBrightness = brightness;
      }
      const [five, six] = this.tables;
      for (let i = 0, o = 0; i < width * height * 2; i += 2, o += 4) {
        const v = (data[i] << 8) | data[i + 1];
        pixels[o] = five[v >> 11];
        pixels[o + 1] = six[(v >> 5) & 63];
        pixels[o + 2] = five[v & 31];
        pixels[o + 3] = 255;
      }
    }
    this.context.putImageData(this.image, 0, 0);
    this.last = { kind, data };
  }
}

/** Is the frame one flat colour (a driver's clear at its start, not the app's picture)? */
function blank(kind, data) {
  const step = kind === 'mono' ? 1 : 2;
  for (let i = step; i < data.length; i += step) {
    if (data[i] !== data[0] || data[i + step - 1] !== data[step - 1]) return false;
  }
  return true;
}

module.exports = { Glass, blank };
