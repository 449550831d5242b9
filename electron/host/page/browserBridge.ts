import { createContractClient } from '../../../shared/contract/client.js';
import type { HostInfo } from '../../../shared/contract.js';
import type { HindsightApi } from '../../../shared/hindsightApi.js';

// window.hindsight in a browser tab served by `hindsight serve`: the same interface as the
// Electron preload, over a WebSocket to the host. It runs before the viewer's own script. There
// are no native dialogs and dropped items have no paths here: the viewer shows its in-app
// "Folder path" dialog and calls openProject with what the user typed.
// Typed structurally: this file is built for the browser but checked without DOM types.

interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  onopen: (() => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: (() => void) | null;
}

interface Page {
  WebSocket: new (url: string) => SocketLike;
  location: { protocol: string; host: string; search: string };
  document: { querySelector(selector: string): { getAttribute(name: string): string | null } | null };
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
  return { kind: 'browser', nativeDialogs: false, dropPaths: false, platform: meta.platform ?? page.navigator.platform ?? 'unknown', version: meta.version ?? '0.0.0' };
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
  const api: HindsightApi = {
    ...client.calls,
    host: hostInfo(),
    onEvent: (listener) => client.onEvent(listener),
    chooseFolder: async () => null,
    pathForFile: () => null,
  };
  page.hindsight = Object.freeze(api);
}

if (!page.hindsight) install();
