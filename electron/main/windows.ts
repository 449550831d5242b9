import { app, BrowserWindow, type MessagePortMain } from 'electron';
import type { AppCommand } from '../../shared/contract.js';
import { IPC, VERSION_ARG } from '../../shared/ipcChannels.js';
import type { HistoryClient, HistoryProcess } from './historyProcess.js';
import { preloadPath, rendererUrl } from './rendererLocation.js';

// The viewer's windows: isolated, sandboxed, no Node, each with its own port to the history
// process. App commands (menu items, folders from the command line) go to the focused window, or
// to a new one when none is open; a window that is still loading gets them once it has loaded.

export class Windows {
  private readonly clients = new Map<BrowserWindow, HistoryClient>();
  private readonly attached = new WeakSet<BrowserWindow>();

  constructor(
    private readonly history: HistoryProcess,
    /** Told when a window is about to close (it may prevent the close: the background notice). */
    private readonly onClosing?: (window: BrowserWindow, event: Electron.Event) => void,
  ) {}

  create(): BrowserWindow {
    const window = new BrowserWindow({
      width: 1200,
      height: 800,
      minWidth: 640,
      minHeight: 420,
      show: false,
      title: 'Hindsight',
      backgroundColor: '#1e1e1e',
      webPreferences: {
        preload: preloadPath(),
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        webviewTag: false,
        spellcheck: false,
        additionalArguments: [`${VERSION_ARG}${app.getVersion()}`],
      },
    });
    // Its walls (navigation, window.open) come from index.ts's 'web-contents-created' guard.
    window.once('ready-to-show', () => window.show());
    const client: HistoryClient = {
      connected: (port: MessagePortMain) => {
        if (!window.isDestroyed()) window.webContents.postMessage(IPC.port, null, [port]);
        else port.close();
      },
      disconnected: (reason: string) => {
        if (!window.isDestroyed()) window.webContents.send(IPC.disconnected, reason);
      },
    };
    this.clients.set(window, client);
    window.on('close', (event) => this.onClosing?.(window, event));
    window.on('closed', () => this.clients.delete(window));
    void window.loadURL(rendererUrl());
    return window;
  }

  /** The preload asked for its port (on every page load, reloads included). */
  connect(window: BrowserWindow): void {
    const client = this.clients.get(window);
    if (!client) return;
    // The first request attaches; later ones (a reload) need a fresh port, the old one died with the page.
    if (!this.attached.has(window)) {
      this.attached.add(window);
      const detach = this.history.attach(client);
      window.on('closed', detach);
    } else this.history.reconnect(client);
  }

  /** Sends a command to the focused window (or the last one, or a new one). */
  command(command: AppCommand): void {
    const target = BrowserWindow.getFocusedWindow() ?? [...this.clients.keys()].at(-1) ?? this.create();
    const send = () => target.webContents.send(IPC.appCommand, command);
    if (target.webContents.isLoading()) target.webContents.once('did-finish-load', send);
    else send();
    if (target.isMinimized()) target.restore();
    target.focus();
  }

  /** Sends a command to one window (the background notice goes to the window being closed). */
  commandTo(window: BrowserWindow, command: AppCommand): void {
    if (!window.isDestroyed()) window.webContents.send(IPC.appCommand, command);
  }

  /** Brings a window forward, making one when none is open (the tray's Open Hindsight). */
  show(): void {
    const window = BrowserWindow.getAllWindows()[0] ?? this.create();
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  }

  focused(): BrowserWindow | null {
    return BrowserWindow.getFocusedWindow();
  }

  windowOf(contents: Electron.WebContents): BrowserWindow | null {
    return BrowserWindow.fromWebContents(contents);
  }
}
