import type { CallName, HindsightEvent, RequestOf, ResponseOf } from './contract.js';
import type { Result } from './contract/result.js';
import type { HostInfo } from './contract/values.js';

// window.hindsight: the one interface the renderer uses, the same whether the Electron preload
// or the browser host's script defines it. One function per contract call, one event
// subscription, and the few things only a host can do (a native folder dialog, a dropped path).

export type HindsightCalls = {
  [N in CallName]: (request: RequestOf<N>) => Promise<Result<ResponseOf<N>>>;
};

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
  /** The path of a folder dropped on the window; null where paths cannot be known (browser). */
  pathForFile(file: FileLike): string | null;
}
