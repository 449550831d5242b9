import type { RecordingStatus } from '../../shared/recording.js';
import { asError, call, closeWindow, isApp, setStartAtLogin } from '../api/hindsight.js';
import type { Slice } from './appState.js';

// Hindsight in the background, as the window shows it: whether every known project is being
// recorded or recording is paused, the notice the first close of the last window shows (recording
// goes on; how to quit), and the one question about starting at login, asked after the first
// project is added. The app only: the browser host is started by whoever runs it.

export interface BackgroundSlice {
  recording: RecordingStatus | null;
  closeNotice: boolean;
  loginQuestion: boolean;
  setRecording(status: RecordingStatus): void;
  showCloseNotice(): void;
  answerCloseNotice(quit: boolean): Promise<void>;
  /** Asks about start at login once: the app, a project known, and the setting never answered. */
  askLoginOnce(): Promise<void>;
  answerLoginQuestion(startAtLogin: boolean): Promise<void>;
}

export const createBackgroundSlice: Slice<BackgroundSlice> = (set, get) => ({
  recording: null,
  closeNotice: false,
  loginQuestion: false,
  setRecording: (recording) => set({ recording }),
  showCloseNotice: () => set({ closeNotice: true }),

  answerCloseNotice: async (quit) => {
    set({ closeNotice: false });
    try {
      await closeWindow(quit);
    } catch (error) {
      get().pushToast({ tone: 'error', message: asError(error).message });
    }
  },

  askLoginOnce: async () => {
    if (!isApp() || get().loginQuestion || get().projects.length === 0) return;
    try {
      const config = await call('getConfig', {});
      if (config.settings.startAtLogin === null && config.error === null) set({ loginQuestion: true });
    } catch {
      // Asked again at the next chance; a failure to read the config has its own banner.
    }
  },

  answerLoginQuestion: async (startAtLogin) => {
    set({ loginQuestion: false });
    try {
      await setStartAtLogin(startAtLogin);
      if (startAtLogin) get().pushToast({ tone: 'info', message: 'Hindsight will start at login and record in the background.' });
    } catch (error) {
      get().pushToast({ tone: 'error', message: asError(error).message });
    }
  },
});
