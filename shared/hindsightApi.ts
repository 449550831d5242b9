import type { CallName, HindsightEvent, RequestOf, ResponseOf } from './contract.js';
import type { Result } from './contract/result.js';
import type { ExportResult, FolderListing, HostInfo, ImportResult } from './contract/values.js';
import type { RemoteCredentialsRequest, RemoteCredentialsState } from './contract/remoteCredentials.js';

// window.hindsight: the one interface the renderer uses, the same whether the Electron preload
// or the browser host's script defines it. One function per contract call, one event
// subscription, and the few things only a host can do (a native folder dialog, a dropped path).

export type HindsightCalls = {
  [N in CallName]: (request: RequestOf<N>) => Promise<Result<ResponseOf<N>>>;
};

/** What the browser host's download of a history asks (downloadHistory). */
export interface DownloadRequest {
  projectId: string;
  operationId: string;
  name: string;
  /** Leave out contents found damaged or missing, as exportHistory's skipDamaged. */
  skipDamaged?: boolean;
}

/** Structurally a DOM File; shared/ has no DOM types. */
export interface FileLike {
  readonly name: string;
  readonly size: number;
}

export interface HindsightApi extends HindsightCalls {
  readonly host: HostInfo;
  /** Every event (see EVENTS in shared/contract.ts); returns the unsubscribe function. */
  onEvent(listener: (event: HindsightEvent) => void): () => void;
  /** The native open-folder dialog; null when cancelled or when the host has none (browser). */
  chooseFolder(): Promise<string | null>;
  /**
   * The browser host: the child folders of `path` (null: the home folder) for the in-page folder
   * picker, the user's own folders only. The app answers NOT_IMPLEMENTED (it has the native dialog).
   */
  browseFolders(path: string | null): Promise<Result<FolderListing>>;
  /** The path of a folder dropped on the window; null where paths cannot be known (browser). */
  pathForFile(file: FileLike): string | null;
  /** The native save dialog for a history bundle (suggesting `suggestedName`); null when cancelled or none (browser). */
  chooseBundleTarget(suggestedName: string): Promise<string | null>;
  /** The native open dialog for a history bundle; null when cancelled or none (browser). */
  chooseBundleSource(): Promise<string | null>;
  /**
   * The browser host: exports a project's history and hands the bundle to the browser as a
   * download. Progress events carry `operationId`; the `cancel` call stops it. The app answers
   * NOT_IMPLEMENTED (it saves to a chosen path with exportHistory). skipDamaged as exportHistory's.
   */
  downloadHistory(request: DownloadRequest): Promise<Result<ExportResult>>;
  /**
   * A remote's access key and secret in the OS keychain (the app: main, Electron's safeStorage):
   * status, set or replace, forget. Answers only which remotes have credentials set, never a
   * key or a secret. The browser host has no keychain: KEYCHAIN_UNAVAILABLE.
   */
  remoteCredentials(request: RemoteCredentialsRequest): Promise<Result<RemoteCredentialsState>>;
  /** The browser host: sends a bundle file to the host, which imports it (into `as` when given). */
  uploadHistory(file: FileLike, request: { operationId: string; as?: string }): Promise<Result<ImportResult>>;
  /**
   * The app: start Hindsight (with no window) when the user logs in, or not; saved as the
   * startAtLogin setting. The browser host starts no app at login: NOT_IMPLEMENTED.
   */
  setStartAtLogin(enabled: boolean): Promise<Result<null>>;
  /**
   * The app, after the close notice: closes this window (recording goes on) or quits Hindsight.
   * The notice is not shown again. The browser host has no window to close: NOT_IMPLEMENTED.
   */
  closeWindow(request: { quit: boolean }): Promise<Result<null>>;
}
