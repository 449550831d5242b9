import { app, BrowserWindow } from 'electron';
import type { ContractClient } from '../../shared/contract/client.js';
import type { Result } from '../../shared/contract/result.js';
import { applyStartAtLogin } from './loginItem.js';

// Hindsight in the background: closing the last window leaves it running (the history process
// records every known project) behind the tray icon. The first time, the window says so before it
// closes (the viewer's close notice); "Start at login" is the user's choice, applied to the OS and
// kept in config.json. Quitting (the tray, the menu, Cmd+Q) is the only way out, and stops the
// history process after it wrote every open change group.

export class Background {
  private noticeShown = true;
  private loginSetting: boolean | null = null;
  /** Told when the start-at-login setting changed (the tray shows it). */
  onChange: () => void = () => undefined;
  private quitting = false;
  /** Windows whose close the notice already let through. */
  private readonly released = new WeakSet<BrowserWindow>();

  constructor(private readonly client: ContractClient) {
    app.on('before-quit', () => (this.quitting = true));
  }

  /** Reads the settings once the history process answers: the notice's flag, and start at login. */
  async load(): Promise<void> {
    const config = await this.client.calls.getConfig({});
    if (!config.ok) return;
    this.noticeShown = config.value.settings.backgroundNoticeShown;
    this.loginSetting = config.value.settings.startAtLogin;
    this.onChange();
    // The OS's login item follows the setting (a reinstall or a moved app may have lost it).
    if (config.value.settings.startAtLogin !== null) applyStartAtLogin(config.value.settings.startAtLogin);
  }

  /** A window is closing: the first close of the last window asks the viewer to say that recording goes on. */
  closing(window: BrowserWindow, event: Electron.Event, sendNotice: () => void): void {
    if (this.quitting || this.noticeShown || this.released.has(window)) return;
    if (BrowserWindow.getAllWindows().some((w) => w !== window && !w.isDestroyed())) return;
    event.preventDefault();
    sendNotice();
  }

  /** The notice was read: it is not shown again; the window closes, or the app quits. */
  async closeAfterNotice(window: BrowserWindow | null, quit: boolean): Promise<Result<null>> {
    this.noticeShown = true;
    const saved = await this.client.calls.editConfig({ settings: { backgroundNoticeShown: true } });
    if (quit) app.quit();
    else if (window && !window.isDestroyed()) {
      this.released.add(window);
      window.close();
    }
    return saved.ok ? { ok: true, value: null } : saved;
  }

  startAtLogin(): boolean | null {
    return this.loginSetting;
  }

  async setStartAtLogin(enabled: boolean): Promise<Result<null>> {
    try {
      applyStartAtLogin(enabled);
    } catch (error) {
      return {
        ok: false,
        error: { code: 'INTERNAL', message: `Start at login could not be ${enabled ? 'turned on' : 'turned off'}: ${(error as Error).message}` },
      };
    }
    const saved = await this.client.calls.editConfig({ settings: { startAtLogin: enabled } });
    if (saved.ok) this.loginSetting = enabled;
    this.onChange();
    return saved.ok ? { ok: true, value: null } : saved;
  }
}
