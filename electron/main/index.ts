import { app, BrowserWindow, Menu, session } from 'electron';
import type { ContractClient } from '../../shared/contract/client.js';
import { registerAppScheme, serveAppProtocol } from './appProtocol.js';
import { argvSkip, folderFromArgv } from './commandLine.js';
import { chooseFolder } from './folderDialog.js';
import { HistoryProcess } from './historyProcess.js';
import { registerIpc } from './ipc.js';
import { connectMain } from './mainClient.js';
import { linkFromArgv, openLinkCommand, registerOpenLinks } from './openLinks.js';
import { serveRemoteCredentials } from './remoteCredentials.js';
import { buildMenu } from './menu.js';
import { guardContents, secureSession } from './security.js';
import { Windows } from './windows.js';
import { Background } from './background.js';
import { startedAtLogin } from './loginItem.js';
import { RecordingTray } from './tray.js';

// The app's lifecycle: one instance, one history process, windows, menus, the tray icon. Main
// stays thin: no file or database work happens here. Closing the last window does not quit:
// the history process goes on recording every known project behind the tray icon (background.ts)
// until the user quits.

const dev = Boolean(process.env.ELECTRON_RENDERER_URL);

registerAppScheme();

if (!app.requestSingleInstanceLock()) {
  // Another Hindsight is running: it receives our command line ('second-instance') and opens the folder.
  app.quit();
} else {
  start();
}

function start(): void {
  let windows: Windows | null = null;
  let followLink: ((url: string) => void) | null = null;
  const pending: string[] = [];
  const pendingLinks: string[] = [];
  const openLink = (url: string): void => (followLink ? followLink(url) : void pendingLinks.push(url));
  registerOpenLinks(app.isPackaged);
  // macOS hands a hindsight:// link over by event, before or after the app is ready.
  app.on('open-url', (event, url) => {
    event.preventDefault();
    openLink(url);
  });
  const openFolder = (path: string): void => {
    app.addRecentDocument(path);
    if (windows) windows.command({ command: 'openFolder', path });
    else pending.push(path);
  };

  app.on('second-instance', (_event, argv, workingDirectory) => {
    const link = linkFromArgv(argv);
    if (link) return openLink(link);
    const folder = folderFromArgv(argv, workingDirectory, argvSkip(app.isPackaged));
    if (folder) openFolder(folder);
    else if (windows) {
      const window = BrowserWindow.getAllWindows()[0] ?? windows.create();
      if (window.isMinimized()) window.restore();
      window.focus();
    }
  });
  // macOS: a folder dropped on the Dock icon or opened with the app.
  app.on('open-file', (event, path) => {
    event.preventDefault();
    openFolder(path);
  });
  app.on('web-contents-created', (_event, contents) => guardContents(contents));

  void app.whenReady().then(() => {
    secureSession(session.defaultSession, dev);
    serveAppProtocol();
    const history = new HistoryProcess(dataDirArg(process.argv));
    history.start();
    const mainClient = connectMain(history);
    followLink = (url) => void openLinkCommand(url, mainClient).then((command) => command && ready.command(command));
    serveRemoteCredentials(history);
    const background = new Background(mainClient);
    void background.load();
    const ready = new Windows(history, (window, event) => background.closing(window, event, () => ready.commandTo(window, { command: 'closeNotice' })));
    windows = ready;
    registerIpc(ready, background);
    const tray = startTray(mainClient, ready, background);

    const refreshMenu = (): Promise<void> => refreshApplicationMenu(mainClient, ready, openFolder);
    void refreshMenu();
    app.on('browser-window-focus', () => void refreshMenu());

    // A start at login records behind the tray icon and opens no window.
    if (!startedAtLogin(process.argv)) ready.create();
    const folder = folderFromArgv(process.argv, process.cwd(), argvSkip(app.isPackaged));
    for (const path of [...(folder ? [folder] : []), ...pending.splice(0)]) openFolder(path);
    const link = linkFromArgv(process.argv);
    for (const url of [...(link ? [link] : []), ...pendingLinks.splice(0)]) openLink(url);

    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) ready.create();
    });
    // The history process writes every open change group before it exits (SIGTERM).
    app.on('before-quit', () => {
      tray.destroy();
      history.stop();
    });
  });

  // Closing the last window keeps Hindsight recording behind the tray icon; Quit ends it.
  app.on('window-all-closed', () => undefined);
}

/** The tray icon, kept current with the background setting and with a restarted history process. */
function startTray(mainClient: ContractClient, ready: Windows, background: Background): RecordingTray {
  const tray = new RecordingTray(mainClient, {
    open: () => ready.show(),
    quit: () => app.quit(),
    startAtLogin: () => background.startAtLogin(),
    setStartAtLogin: (enabled) => background.setStartAtLogin(enabled),
  });
  background.onChange = () => tray.update();
  mainClient.onEvent((event) => {
    // A restarted history process: ask it again what it records.
    if (event.event === 'connection' && event.payload.state === 'restored') void tray.refresh();
  });
  return tray;
}

/** The application menu, its recent folders the known projects last opened first. */
async function refreshApplicationMenu(mainClient: ContractClient, ready: Windows, openFolder: (path: string) => void): Promise<void> {
  const projects = await mainClient.calls.listProjects({});
  const recent = projects.ok ? [...projects.value].sort((a, b) => (b.lastOpenedAt ?? 0) - (a.lastOpenedAt ?? 0)) : [];
  Menu.setApplicationMenu(
    buildMenu(
      {
        openFolder: () => void chooseFolder(ready.focused()).then((path) => (path ? openFolder(path) : undefined)),
        openRecent: openFolder,
        closeProject: () => ready.command({ command: 'closeProject' }),
        exportHistory: () => ready.command({ command: 'exportHistory' }),
        importHistory: () => ready.command({ command: 'importHistory' }),
      },
      recent,
    ),
  );
}

/** `--data-dir DIR` (or `--data-dir=DIR`) given to the app; else the history process decides. */
function dataDirArg(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('--data-dir=')) return arg.slice('--data-dir='.length);
    if (arg === '--data-dir') return argv[i + 1];
  }
  return undefined;
}
