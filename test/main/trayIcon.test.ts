import { describe, expect, it } from 'vitest';
import { TRAY_ICON_SIZE, trayIconBitmap } from '../../electron/main/trayIcon.js';

// The tray icon's pixels (main draws them; no image file ships): a ring, with a hand while
// recording and two bars while paused, black on transparent so macOS can tint it.

const alphaAt = (bitmap: Buffer, x: number, y: number) => bitmap[(y * TRAY_ICON_SIZE + x) * 4 + 3]!;

describe('the tray icon', () => {
  it('is a ring, black on transparent, with its corners clear', () => {
    const icon = trayIconBitmap(true);
    expect(icon.length).toBe(TRAY_ICON_SIZE * TRAY_ICON_SIZE * 4);
    for (let i = 0; i < icon.length; i += 4) expect([icon[i], icon[i + 1], icon[i + 2]]).toEqual([0, 0, 0]);
    expect(alphaAt(icon, 0, 0)).toBe(0);
    expect(alphaAt(icon, 2, Math.floor(TRAY_ICON_SIZE / 2))).toBeGreaterThan(200);
  });

  it('tells recording from paused', () => {
    const recording = trayIconBitmap(true);
    const paused = trayIconBitmap(false);
    const mid = Math.floor(TRAY_ICON_SIZE / 2);
    // The hand points up from the centre; the bars leave the centre column clear.
    expect(alphaAt(recording, mid, mid - 5)).toBe(255);
    expect(alphaAt(paused, mid, mid - 5)).toBe(0);
    expect(alphaAt(paused, mid - 3, mid)).toBe(255);
    expect(recording.equals(paused)).toBe(false);
  });
});
