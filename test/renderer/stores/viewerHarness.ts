import { onTestFinished, vi } from 'vitest';
import { MessageChannel } from 'node:worker_threads';
import { ENGINE_EVENT_NAMES, type CallName } from '../../../shared/contract.js';
import { createContractClient } from '../../../shared/contract/client.js';
import { CALL_NAME_LIST } from '../../../shared/contract/names.js';
import type { HindsightApi, HindsightCalls } from '../../../shared/hindsightApi.js';
import { createDispatcher } from '../../../electron/history/dispatcher/dispatcher.js';
import { servePort } from '../../../electron/history/dispatcher/servePort.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import type { AppState } from '../../../renderer/stores/appState.js';
import { tempDir } from '../../helpers/tempDirs.js';

// The viewer's store as the app runs it, against the real engine through the real dispatcher
// over a real MessageChannel (structured clones, as between a window and the history process).
// The one double is window.hindsight itself: the same shared client the preload uses, wrapped to
// record the name of every call the renderer makes.

type Store = typeof import('../../../renderer/stores/appStore.js').useApp;

export interface Viewer {
  engine: HistoryEngine;
  /** Every call the renderer made, in order; empty it to count from a point on. */
  calls: CallName[];
  /** The same calls with what each asked (emptied with calls: `viewer.calls.length = 0` empties both). */
  requests: { name: CallName; request: unknown }[];
  app: Store;
  /** Resolves once every event the engine fired has reached the viewer and no refresh is waiting or running. */
  refreshed: () => Promise<void>;
  /** Resolves as soon as the store's state satisfies `ready` (checked on every change). */
  until: (ready: (state: AppState) => boolean) => Promise<AppState>;
}

/** What the Electron main process answers a window (background.ts), as the app's window sees it. */
export interface AppSide {
  /** Every request the window made of main, in order. */
  asked: ({ setStartAtLogin: boolean } | { closeWindow: { quit: boolean } })[];
}

/** A viewer in the browser host (default), or in the app: its host is Electron's, and main's answers are recorded. */
export async function startViewer(options: { app?: AppSide; dataDir?: string } = {}): Promise<Viewer> {
  const engine = new HistoryEngine(options.dataDir ?? tempDir('hindsight-data-'));
  const dispatcher = createDispatcher(engine, { watch: false });
  const { port1, port2 } = new MessageChannel();
  const stopPort = servePort(dispatcher, port1);
  const client = createContractClient();
  port2.on('message', (message) => client.receive(message));
  client.connect({ send: (message) => port2.postMessage(message) });
  // Events cross the port a moment after the engine fires them: counted on both sides.
  let fired = 0;
  let received = 0;
  const caughtUp: (() => void)[] = [];
  engine.events.on(() => fired++);
  client.onEvent((event) => {
    if (!(ENGINE_EVENT_NAMES as readonly string[]).includes(event.event)) return;
    received++;
    if (received === fired) for (const resolve of caughtUp.splice(0)) resolve();
  });
  const delivered = () => (received === fired ? Promise.resolve() : new Promise<void>((resolve) => caughtUp.push(resolve)));

  const calls: CallName[] = [];
  const requests: { name: CallName; request: unknown }[] = [];
  const counted = Object.fromEntries(
    CALL_NAME_LIST.map((name) => [
      name,
      (request: unknown) => {
        // Emptying calls empties this record too: tests count from one point on.
        if (calls.length === 0) requests.length = 0;
        calls.push(name);
        requests.push({ name, request });
        return (client.calls[name] as (r: unknown) => Promise<unknown>)(request);
      },
    ]),
  ) as unknown as HindsightCalls;
  const api: HindsightApi = {
    ...counted,
    host: { kind: options.app ? 'electron' : 'browser', nativeDialogs: false, dropPaths: false, platform: process.platform, version: 'test' },
    onEvent: (listener) => client.onEvent(listener),
    chooseFolder: async () => null,
    pathForFile: () => null,
    chooseBundleTarget: async () => null,
    chooseBundleSource: async () => null,
    // Bundles over HTTP are the browser host's (its own tests and the browser e2e cover them).
    downloadHistory: async () => ({ ok: false, error: { code: 'NOT_IMPLEMENTED', message: 'no host here' } }),
    uploadHistory: async () => ({ ok: false, error: { code: 'NOT_IMPLEMENTED', message: 'no host here' } }),
    browseFolders: async () => ({ ok: false, error: { code: 'NOT_IMPLEMENTED', message: 'no host here' } }),
    // As the browser host: no keychain.
    remoteCredentials: async () => ({ ok: false, error: { code: 'KEYCHAIN_UNAVAILABLE', message: 'no keychain here' } }),
    // Main's side of the app, at the edge: it keeps the answer in config.json as background.ts does.
    setStartAtLogin: async (enabled) => {
      if (!options.app) return { ok: false, error: { code: 'NOT_IMPLEMENTED', message: 'no app here' } };
      options.app.asked.push({ setStartAtLogin: enabled });
      const saved = await client.calls.editConfig({ settings: { startAtLogin: enabled } });
      return saved.ok ? { ok: true, value: null } : saved;
    },
    closeWindow: async (request) => {
      if (!options.app) return { ok: false, error: { code: 'NOT_IMPLEMENTED', message: 'no app here' } };
      options.app.asked.push({ closeWindow: request });
      const saved = await client.calls.editConfig({ settings: { backgroundNoticeShown: true } });
      return saved.ok ? { ok: true, value: null } : saved;
    },
  };
  (globalThis as { window?: unknown }).window = { hindsight: api };

  // A fresh store and API module for each viewer, as each window has its own.
  vi.resetModules();
  const { useApp } = await import('../../../renderer/stores/appStore.js');
  const { startLiveEvents } = await import('../../../renderer/stores/liveEvents.js');
  const { refreshSettled } = await import('../../../renderer/stores/refresh.js');
  const stopEvents = startLiveEvents();
  onTestFinished(async () => {
    stopEvents();
    stopPort();
    port2.close();
    await dispatcher.close();
    engine.close();
    delete (globalThis as { window?: unknown }).window;
  });

  const until = (ready: (state: AppState) => boolean) =>
    new Promise<AppState>((resolve) => {
      if (ready(useApp.getState())) return resolve(useApp.getState());
      const stop = useApp.subscribe((state) => {
        if (!ready(state)) return;
        stop();
        resolve(state);
      });
    });
  const refreshed = async () => {
    await delivered();
    await refreshSettled();
  };
  return { engine, calls, requests, app: useApp, refreshed, until };
}

/** The paths of the files directly in the project's root, as the tree's root level lists them. */
export function rootFiles(state: AppState): string[] {
  const root = state.levels.get('');
  return root?.status === 'ready' ? root.level.files.map((f) => f.path) : [];
}

/** Opens a folder through the store as a click would, and waits for its tree. */
export async function openInViewer(viewer: Viewer, root: string): Promise<string> {
  const s = viewer.app.getState();
  if (!(await s.openFolder(root))) throw new Error(`the viewer could not open ${root}: ${viewer.app.getState().openError}`);
  const projectId = viewer.app.getState().currentProjectId!;
  // The tree's root level and the deleted files, before anything is counted.
  await viewer.app.getState().loadTree();
  return projectId;
}
