// The tray (menu-bar) icon, drawn in code as a BGRA bitmap: a ring, like a clock face, with a
// hand while recording and two bars while paused. Black on transparent, so macOS can use it as a
// template image (tinted for light and dark menu bars). Pure: no Electron here, so it is tested
// in Node.

export const TRAY_ICON_SIZE = 32;

/** The icon's pixels, BGRA, TRAY_ICON_SIZE x TRAY_ICON_SIZE. */
export function trayIconBitmap(recording: boolean): Buffer {
  const size = TRAY_ICON_SIZE;
  const pixels = Buffer.alloc(size * size * 4);
  const centre = (size - 1) / 2;
  const outer = size / 2 - 1.5;
  const inner = outer - 3;
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const dx = x - centre;
      const dy = y - centre;
      const r = Math.hypot(dx, dy);
      const ring = coverage(r, inner, outer);
      const mark = recording ? hand(dx, dy) : pauseBars(dx, dy);
      const alpha = Math.round(255 * Math.max(ring, mark));
      pixels[(y * size + x) * 4 + 3] = alpha;
    }
  }
  return pixels;
}

/** How much of a pixel at distance r lies between the two radii (a soft edge of one pixel). */
function coverage(r: number, inner: number, outer: number): number {
  return clamp01(Math.min(r - inner + 0.5, outer - r + 0.5));
}

/** A hand from the centre up to twelve o'clock and one to three o'clock. */
function hand(dx: number, dy: number): number {
  const up = dy <= 0.5 && dy >= -9 && Math.abs(dx) <= 1.25 ? 1 : 0;
  const right = dx >= -0.5 && dx <= 6 && Math.abs(dy) <= 1.25 ? 1 : 0;
  return Math.max(up, right);
}

function pauseBars(dx: number, dy: number): number {
  if (Math.abs(dy) > 6) return 0;
  return (dx >= -4.5 && dx <= -1.5) || (dx >= 1.5 && dx <= 4.5) ? 1 : 0;
}

function clamp01(v: number): number {
  return v < 0 ? 0 : v > 1 ? 1 : v;
}
