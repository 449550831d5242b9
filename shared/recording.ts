// Recording in the background, in the user's words: whether the history process records every
// known project now or is paused (and until when), and the wording of the tray (menu-bar) icon and
// of the notices the app shows about it. The Electron main process builds its tray from these, the
// viewer its notices, so every place says the same thing.

export interface RecordingStatus {
  /** False while recording is paused by the user. */
  recording: boolean;
  /** When a pause ends by itself (ms since the epoch); null while recording or paused until resumed. */
  resumesAt: number | null;
  /** How many projects are being recorded now. */
  projects: number;
}

/** "Pause recording for 1 hour". */
export const PAUSE_FOR_MS = 60 * 60 * 1000;

export const TRAY_TEXT = {
  open: 'Open Hindsight',
  pauseForAnHour: 'Pause recording for 1 hour',
  pauseUntilResumed: 'Pause recording until resumed',
  resume: 'Resume recording',
  startAtLogin: 'Start at login',
  quit: 'Quit Hindsight',
} as const;

export type TrayAction = keyof typeof TRAY_TEXT;

export type TrayItem =
  | { kind: 'action'; action: TrayAction; label: string }
  | { kind: 'toggle'; action: TrayAction; label: string; checked: boolean }
  | { kind: 'status'; label: string }
  | { kind: 'separator' };

/** A time of day as the user's locale writes it (the caller passes its formatter). */
export type TimeOfDay = (ms: number) => string;

/** One line that says what Hindsight is doing: the tray icon's tooltip and the menu's first row. */
export function recordingLine(status: RecordingStatus, timeOfDay: TimeOfDay): string {
  if (!status.recording) return status.resumesAt === null ? 'Recording paused until you resume it' : `Recording paused until ${timeOfDay(status.resumesAt)}`;
  if (status.projects === 0) return 'Recording: no project yet';
  return `Recording ${status.projects} ${status.projects === 1 ? 'project' : 'projects'}`;
}

/** The tray icon's menu, top to bottom; startAtLogin is the setting (null, not asked yet, shows as off). */
export function trayItems(status: RecordingStatus, timeOfDay: TimeOfDay, startAtLogin: boolean | null): TrayItem[] {
  const action = (a: TrayAction): TrayItem => ({ kind: 'action', action: a, label: TRAY_TEXT[a] });
  const pausing: TrayItem[] = status.recording ? [action('pauseForAnHour'), action('pauseUntilResumed')] : [action('resume')];
  const login: TrayItem = { kind: 'toggle', action: 'startAtLogin', label: TRAY_TEXT.startAtLogin, checked: startAtLogin === true };
  return [
    { kind: 'status', label: recordingLine(status, timeOfDay) },
    action('open'),
    { kind: 'separator' },
    ...pausing,
    { kind: 'separator' },
    login,
    { kind: 'separator' },
    action('quit'),
  ];
}

/** Said once, in the window, the first time the last window is closed. */
export const CLOSE_NOTICE = {
  title: 'Hindsight keeps recording',
  text: 'Closing this window does not stop Hindsight: it goes on recording every change of your projects in the background. To stop it, choose “Quit Hindsight” from its icon in the menu bar (macOS) or the system tray.',
  close: 'Close window',
  quit: 'Quit Hindsight',
} as const;

/** Asked once, after the first project is added. */
export const LOGIN_QUESTION = {
  title: 'Start Hindsight when you log in?',
  text: 'Changes are recorded only while Hindsight runs. Started at login, it records in the background without opening a window. You can change this later in the menu of its tray icon (Start at login).',
  yes: 'Start at login',
  no: 'Not now',
} as const;
