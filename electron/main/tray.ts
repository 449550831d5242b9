import { Menu, nativeImage, Tray, type MenuItemConstructorOptions } from 'electron';
import type { ContractClient } from '../../shared/contract/client.js';
import { PAUSE_FOR_MS, recordingLine, trayItems, type RecordingStatus, type TrayAction } from '../../shared/recording.js';
import { TRAY_ICON_SIZE, trayIconBitmap } from './trayIcon.js';

// The tray (menu-bar) icon that keeps Hindsight reachable while it records with no window open:
// Open Hindsight, a pause for an hour or until resumed, Resume, Quit. Its wording and states come
// from shared/recording.ts; the pause itself is the history process's (pauseRecording).

export interface TrayActions {
  open: () => void;
  quit: () => void;
  /** The startAtLogin setting now (null: never answered). */
  startAtLogin: () => boolean | null;
  setStartAtLogin: (enabled: boolean) => Promise<unknown>;
}

const timeOfDay = (ms: number): string => new Date(ms).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });

export class RecordingTray {
  private readonly tray: Tray;
  private status: RecordingStatus = { recording: true, resumesAt: null, projects: 0 };

  constructor(
    private readonly client: ContractClient,
    private readonly actions: TrayActions,
  ) {
    this.tray = new Tray(iconFor(true));
    this.tray.on('click', () => actions.open());
    client.onEvent((event) => {
      if (event.event === 'recording') this.show(event.payload);
    });
    this.render();
    void this.refresh();
  }

  /** Asks the history process (at start, and after it was restarted). */
  async refresh(): Promise<void> {
    const answer = await this.client.calls.recordingStatus({});
    if (answer.ok) this.show(answer.value);
  }

  destroy(): void {
    this.tray.destroy();
  }

  /** Draws the menu again (a setting it shows changed). */
  update(): void {
    this.render();
  }

  private show(status: RecordingStatus): void {
    this.status = status;
    this.render();
  }

  private render(): void {
    this.tray.setImage(iconFor(this.status.recording));
    this.tray.setToolTip(`Hindsight: ${recordingLine(this.status, timeOfDay)}`);
    const template: MenuItemConstructorOptions[] = trayItems(this.status, timeOfDay, this.actions.startAtLogin()).map((item): MenuItemConstructorOptions => {
      if (item.kind === 'separator') return { type: 'separator' };
      if (item.kind === 'status') return { label: item.label, enabled: false };
      if (item.kind === 'toggle') return { label: item.label, type: 'checkbox', checked: item.checked, click: () => void this.act(item.action) };
      return { label: item.label, click: () => void this.act(item.action) };
    });
    this.tray.setContextMenu(Menu.buildFromTemplate(template));
  }

  private async act(action: TrayAction): Promise<void> {
    if (action === 'open') return this.actions.open();
    if (action === 'quit') return this.actions.quit();
    if (action === 'startAtLogin') {
      await this.actions.setStartAtLogin(this.actions.startAtLogin() !== true);
      return this.render();
    }
    const answer =
      action === 'resume'
        ? await this.client.calls.resumeRecording({})
        : await this.client.calls.pauseRecording({ forMs: action === 'pauseForAnHour' ? PAUSE_FOR_MS : null });
    if (answer.ok) this.show(answer.value);
  }
}

function iconFor(recording: boolean): Electron.NativeImage {
  const image = nativeImage.createFromBitmap(trayIconBitmap(recording), { width: TRAY_ICON_SIZE, height: TRAY_ICON_SIZE, scaleFactor: 2 });
  image.setTemplateImage(true);
  return image;
}
