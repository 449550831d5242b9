import type { RemoteCredentialsRequest, RemoteCredentialsState } from '../../shared/contract/remoteCredentials.js';
import type {
  CallName,
  ExportResult,
  FileEntry,
  FolderLevel,
  FolderListing,
  HindsightEvent,
  ImportResult,
  RequestOf,
  ResponseOf,
  Result,
} from '../../shared/contract.js';
import type { DownloadRequest, HindsightApi } from '../../shared/hindsightApi.js';
import { errorFromData, HindsightError } from '../../shared/errors.js';

// The only place that touches window.hindsight. Calls answer a Result; here a failed Result
// becomes a thrown HindsightError so stores handle success and failure with one try/catch, and a
// missing bridge is an error the UI can show instead of a blank window.

declare global {
  interface Window {
    hindsight?: HindsightApi;
  }
}

const READY_TIMEOUT_MS = 10_000;
let ready: Promise<HindsightApi> | null = null;

/** The bridge; a host script may define it a moment after this module runs, so wait for it. */
function whenReady(): Promise<HindsightApi> {
  ready ??= new Promise((resolve, reject) => {
    const started = Date.now();
    const look = () => {
      if (window.hindsight) resolve(window.hindsight);
      else if (Date.now() - started > READY_TIMEOUT_MS) {
        ready = null;
        reject(new HindsightError('INTERNAL', 'The viewer is not connected to a history process. Start it from the app or with `hindsight serve`.'));
      } else setTimeout(look, 20);
    };
    look();
  });
  return ready;
}

function bridge(): HindsightApi {
  const api = window.hindsight;
  if (!api) throw new HindsightError('INTERNAL', 'The viewer is not connected to a history process.');
  return api;
}

/** One contract call; resolves with its value or throws its HindsightError. */
export async function call<N extends CallName>(name: N, request: RequestOf<N>): Promise<ResponseOf<N>> {
  const api = await whenReady();
  // TypeScript cannot narrow a union of call signatures by N; every entry has this shape.
  const fn = api[name] as unknown as (r: RequestOf<N>) => Promise<Result<ResponseOf<N>>>;
  const result = await fn.call(api, request);
  if (result.ok) return result.value;
  throw errorFromData(result.error);
}

/** Every event from the history process and the host; returns the unsubscribe function. */
export function onEvent(listener: (event: HindsightEvent) => void): () => void {
  let stop: (() => void) | null = null;
  let stopped = false;
  whenReady().then(
    (api) => {
      if (!stopped) stop = api.onEvent(listener);
    },
    () => undefined,
  );
  return () => {
    stopped = true;
    stop?.();
  };
}

export function hasNativeDialogs(): boolean {
  return window.hindsight?.host.nativeDialogs ?? false;
}

export async function chooseFolder(): Promise<string | null> {
  return (await whenReady()).chooseFolder();
}

/** The browser host: the child folders of `path` (null: the home folder) for the in-page folder picker. */
export async function browseFolders(path: string | null): Promise<FolderListing> {
  return valueOf(await (await whenReady()).browseFolders(path));
}

/** The native save dialog for a history bundle; null when cancelled (or in a browser). */
export async function chooseBundleTarget(suggestedName: string): Promise<string | null> {
  return (await whenReady()).chooseBundleTarget(suggestedName);
}

/** The native open dialog for a history bundle; null when cancelled (or in a browser). */
export async function chooseBundleSource(): Promise<string | null> {
  return (await whenReady()).chooseBundleSource();
}

/** A remote's credentials in the OS keychain (the app only; the browser host answers KEYCHAIN_UNAVAILABLE). */
export async function remoteCredentials(request: RemoteCredentialsRequest): Promise<RemoteCredentialsState> {
  return valueOf(await (await whenReady()).remoteCredentials(request));
}

/** The browser host: the project's history exported and handed to the browser as a download. */
export async function downloadHistory(request: DownloadRequest): Promise<ExportResult> {
  return valueOf(await (await whenReady()).downloadHistory(request));
}

/** The browser host: a bundle file the user picked, sent to the host and imported there. */
export async function uploadHistory(file: File, request: { operationId: string; as?: string }): Promise<ImportResult> {
  return valueOf(await (await whenReady()).uploadHistory(file, request));
}

/** The app: start Hindsight (with no window) at login, or not. */
export async function setStartAtLogin(enabled: boolean): Promise<void> {
  valueOf(await (await whenReady()).setStartAtLogin(enabled));
}

/** The app, after the close notice: close this window (recording goes on) or quit Hindsight. */
export async function closeWindow(quit: boolean): Promise<void> {
  valueOf(await (await whenReady()).closeWindow({ quit }));
}

/** Whether this window is the app's (which runs in the background and starts at login) rather than the browser host's. */
export function isApp(): boolean {
  return window.hindsight?.host.kind === 'electron';
}

function valueOf<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw errorFromData(result.error);
}

export function pathForFile(file: File): string | null {
  return bridge().pathForFile(file);
}

/** Any thrown value as the error data the UI shows. */
export function asError(error: unknown): HindsightError {
  if (error instanceof HindsightError) return error;
  return new HindsightError('INTERNAL', error instanceof Error ? error.message : String(error));
}

let counter = 0;
/** An operationId for long work this window starts (so it can cancel it). */
export function newOperationId(kind: string): string {
  counter += 1;
  return `${kind}-${Date.now().toString(36)}-${counter}`;
}

/** fileTree without a folder: every file at a snapshot (the flat list the filter and restore dialogs read). */
export async function wholeTree(projectId: string, snapshotId?: number): Promise<FileEntry[]> {
  const answer = await call('fileTree', snapshotId === undefined ? { projectId } : { projectId, snapshotId });
  if (!Array.isArray(answer)) throw new HindsightError('INTERNAL', 'fileTree answered a folder level to a whole-tree request.');
  return answer;
}

/** fileTree with a folder: that folder's direct children ('' = the root). */
export async function folderLevel(projectId: string, folder: string): Promise<FolderLevel> {
  const answer = await call('fileTree', { projectId, folder });
  if (Array.isArray(answer)) throw new HindsightError('INTERNAL', 'fileTree answered a whole tree to a folder request.');
  return answer;
}
