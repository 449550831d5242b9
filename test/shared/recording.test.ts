import { describe, expect, it } from 'vitest';
import { recordingLine, TRAY_TEXT, trayItems } from '../../shared/recording.js';

// The tray's wording and states, from the one place the app's main process and the viewer read.

const at = (ms: number) => `T${ms}`;

describe('the tray menu', () => {
  it('offers both pauses while recording, and Resume while paused', () => {
    const recording = trayItems({ recording: true, resumesAt: null, projects: 3 }, at, null);
    expect(recording.map((i) => (i.kind === 'separator' ? '-' : i.label))).toEqual([
      'Recording 3 projects',
      TRAY_TEXT.open,
      '-',
      TRAY_TEXT.pauseForAnHour,
      TRAY_TEXT.pauseUntilResumed,
      '-',
      TRAY_TEXT.startAtLogin,
      '-',
      TRAY_TEXT.quit,
    ]);
    expect(recording.find((i) => i.kind === 'toggle')).toMatchObject({ action: 'startAtLogin', checked: false });
    const paused = trayItems({ recording: false, resumesAt: 5000, projects: 0 }, at, true);
    expect(paused.map((i) => (i.kind === 'separator' ? '-' : i.label))).toEqual([
      'Recording paused until T5000',
      TRAY_TEXT.open,
      '-',
      TRAY_TEXT.resume,
      '-',
      TRAY_TEXT.startAtLogin,
      '-',
      TRAY_TEXT.quit,
    ]);
    expect(paused.find((i) => i.kind === 'toggle')).toMatchObject({ checked: true });
  });

  it('says what it does in one line', () => {
    expect(recordingLine({ recording: true, resumesAt: null, projects: 1 }, at)).toBe('Recording 1 project');
    expect(recordingLine({ recording: true, resumesAt: null, projects: 0 }, at)).toBe('Recording: no project yet');
    expect(recordingLine({ recording: false, resumesAt: null, projects: 0 }, at)).toBe('Recording paused until you resume it');
  });
});
