import { createContractClient } from '../../../shared/contract/client.js';
import type { ExportResult, FolderListing, HostInfo, ImportResult } from '../../../shared/contract.js';
import type { Result } from '../../../shared/contract/result.js';
import { HindsightError } from '../../../shared/errors.js';
import type { DownloadRequest, HindsightApi } from '../../../shared/hindsightApi.js';

// window.hindsight in a browser tab served by `hindsight serve`: the same interface as the
// Electron preload, over a WebSocket to the host. It runs before the viewer's own script. There
// are no native dialogs and dropped items have no paths here: the viewer shows its in-app
// "Folder path" dialog and calls openProject with what the user typed. A history bundle travels
// over HTTP instead (electron/host/bundleTransfers.ts): an export is prepared by the host and then
// downloaded, an import is uploaded; Cancel aborts the upload here and the work on the host.
// Typed structurally: this file is built for the browser but checked without DOM types.

interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  onopen: (() => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: (() => void) | null;
}

interface FetchReply {
  readonly status: number;
  json(): Promise<unknown>;
}

interface Anchor {
  href: string;
  download: string;
  click(): void;
  remove(): void;
}

interface Page {
  fetch(
    url: string,
    init: { method: string; body?: unknown; headers?: Record<string, string>; signal?: unknown; credentials: 'same-origin' },
  ): Promise<FetchReply>;
  AbortController: new () => { signal: unknown; abort(): void };
  WebSocket: new (url: string) => SocketLike;
  location: { protocol: string; host: string; search: string };
  document: {
    querySelector(selector: string): { getAttribute(name: string): string | null } | null;
    createElement(tag: 'a'): Anchor;
    body: { append(node: Anchor): void };
  };
  navigator: { platform?: string };
  hindsight?: HindsightApi;
  setTimeout(run: () => void, ms: number): unknown;
  console: { error(...args: unknown[]): void };
}

const page = globalThis as unknown as Page;
const RETRY_MS = [250, 500, 1000, 2000, 5000];

function hostInfo(): HostInfo {
  let meta: Partial<HostInfo> = {};
  try {
    meta = JSON.parse(page.document.querySelector('meta[name="hindsight-host"]')?.getAttribute('content') ?? '{}') as Partial<HostInfo>;
  } catch {
    // A page without the host's meta (opened from disk): defaults below.
  }
  return {
    kind: 'browser',
    nativeDialogs: false,
    dropPaths: false,
    platform: meta.platform ?? page.navigator.platform ?? 'unknown',
    version: meta.version ?? '0.0.0',
  };
}

function socketUrl(): string {
  // The cookie set by the first page load carries the token; a ?token= on the page is passed on too.
  const token = new URLSearchParams(page.location.search).get('token');
  const scheme = page.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${page.location.host}/ws${token ? `?token=${encodeURIComponent(token)}` : ''}`;
}

function install(): void {
  const client = createContractClient({ reportError: (error) => page.console.error('hindsight: an event listener threw', error) });
  let attempt = 0;
  const open = (): void => {
    const socket = new page.WebSocket(socketUrl());
    socket.onmessage = (event) => {
      if (typeof event.data !== 'string') return;
      try {
        client.receive(JSON.parse(event.data));
      } catch {
        // Not JSON: not from our host; ignore it.
      }
    };
    socket.onopen = () => {
      attempt = 0;
      client.connect({ send: (message) => socket.send(JSON.stringify(message)) });
    };
    socket.onclose = () => {
      client.disconnect('the connection to hindsight serve closed');
      page.setTimeout(open, RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)] ?? 5000);
    };
  };
  open();
  const uploads = new Map<string, { abort(): void }>();
  const api: HindsightApi = {
    ...client.calls,
    // An upload is stopped here (the host then sees its request end) and on the host.
    cancel: (request) => {
      uploads.get(request.operationId)?.abort();
      return client.calls.cancel(request);
    },
    host: hostInfo(),
    onEvent: (listener) => client.onEvent(listener),
    chooseFolder: async () => null,
    pathForFile: () => null,
    chooseBundleTarget: async () => null,
    chooseBundleSource: async () => null,
    // No OS keychain here: the host's pushes use the AWS environment or profile it was started with.
    remoteCredentials: async () => ({
      ok: false,
      error: {
        code: 'KEYCHAIN_UNAVAILABLE',
        message: 'The browser host has no keychain to keep credentials in. It uses the AWS environment variables or profile it was started with.',
      },
    }),
    downloadHistory: (request) => downloadHistory(request),
    uploadHistory: (file, request) => uploadHistory(file, request, uploads),
    browseFolders: (path) => browseFolders(path),
    // The host is started by whoever runs `hindsight serve` (or its service), and has no window.
    setStartAtLogin: async () => ({
      ok: false,
      error: { code: 'NOT_IMPLEMENTED', message: 'The browser host is not an app started at login: run `hindsight service install` to record from login on.' },
    }),
    closeWindow: async () => ({ ok: false, error: { code: 'NOT_IMPLEMENTED', message: 'The browser host has no window of its own to close.' } }),
  };
  page.hindsight = Object.freeze(api);
}

/** The host writes the bundle; once it answers, the browser downloads it (a one-time URL). */
async function downloadHistory(request: DownloadRequest): Promise<Result<ExportResult>> {
  const { skipDamaged, ...named } = request;
  const query = new URLSearchParams({ ...named, ...(skipDamaged ? { skipDamaged: 'true' } : {}) }).toString();
  const answer = await post<{ result: ExportResult; download: string }>(`/transfer/export?${query}`, {});
  if (!answer.ok) return answer;
  const link = page.document.createElement('a');
  link.href = answer.value.download;
  link.download = '';
  page.document.body.append(link);
  link.click();
  link.remove();
  return { ok: true, value: answer.value.result };
}

async function uploadHistory(
  file: unknown,
  request: { operationId: string; as?: string },
  uploads: Map<string, { abort(): void }>,
): Promise<Result<ImportResult>> {
  const params: Record<string, string> = { operationId: request.operationId };
  if (request.as) params.as = request.as;
  const controller = new page.AbortController();
  let cancelled = false;
  uploads.set(request.operationId, { abort: () => ((cancelled = true), controller.abort()) });
  try {
    return await post<ImportResult>(`/transfer/import?${new URLSearchParams(params).toString()}`, {
      body: file,
      headers: { 'Content-Type': 'application/octet-stream' },
      signal: controller.signal,
    });
  } catch (error) {
    if (cancelled) return failure('CANCELLED', 'The import was cancelled; nothing was imported.');
    throw error;
  } finally {
    uploads.delete(request.operationId);
  }
}

/** The host lists folders for the in-page picker (electron/host/folderBrowser.ts). */
async function browseFolders(path: string | null): Promise<Result<FolderListing>> {
  const query = path === null ? '' : `?${new URLSearchParams({ path }).toString()}`;
  let reply: FetchReply;
  try {
    reply = await page.fetch(`/folders${query}`, { method: 'GET', credentials: 'same-origin' });
  } catch {
    return failure('DISCONNECTED', 'The connection to hindsight serve failed while listing folders.');
  }
  try {
    return (await reply.json()) as Result<FolderListing>;
  } catch {
    return failure('INTERNAL', `hindsight serve answered ${reply.status} without a result.`);
  }
}

async function post<T>(url: string, init: { body?: unknown; headers?: Record<string, string>; signal?: unknown }): Promise<Result<T>> {
  let reply: FetchReply;
  try {
    reply = await page.fetch(url, { method: 'POST', credentials: 'same-origin', ...init });
  } catch (error) {
    if ((error as { name?: string } | null)?.name === 'AbortError') throw error;
    return failure('DISCONNECTED', 'The connection to hindsight serve failed during the transfer.');
  }
  try {
    return (await reply.json()) as Result<T>;
  } catch {
    return failure('INTERNAL', `hindsight serve answered ${reply.status} without a result.`);
  }
}

function failure(code: 'CANCELLED' | 'DISCONNECTED' | 'INTERNAL', message: string): Result<never> {
  return { ok: false, error: new HindsightError(code, message).toJSON() };
}

if (!page.hindsight) install();
