import { MessageChannelMain, utilityProcess, type MessagePortMain, type UtilityProcess } from 'electron';
import { historyEntryPath } from './rendererLocation.js';

// The one history process of the app: forked with utilityProcess.fork, handed a MessagePort per
// client (each window, and main itself). When it dies it is started again, with a growing pause
// if it keeps dying, and every client is told it lost its port and then given a new one.

export interface HistoryClient {
  /** The process died: calls in flight are lost. */
  disconnected(reason: string): void;
  /** A port to the (new) process. */
  connected(port: MessagePortMain): void;
}

const RESTART_DELAYS_MS = [0, 500, 2000, 5000];
const STABLE_AFTER_MS = 60_000;

export class HistoryProcess {
  private child: UtilityProcess | null = null;
  private readonly clients = new Set<HistoryClient>();
  private crashes = 0;
  private startedAt = 0;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | null = null;

  /** dataDir undefined: the history process resolves it as the CLI does (HINDSIGHT_DATA_DIR, the platform folder). */
  constructor(private readonly dataDir: string | undefined) {}

  start(): void {
    this.startedAt = Date.now();
    const child = utilityProcess.fork(historyEntryPath(), this.dataDir ? ['--data-dir', this.dataDir] : [], {
      serviceName: 'Hindsight history',
      stdio: 'inherit',
    });
    this.child = child;
    child.once('exit', (code) => this.exited(child, code));
    for (const client of this.clients) this.connect(client);
  }

  /** Adds a client and connects it now; it is reconnected after every restart until removed. */
  attach(client: HistoryClient): () => void {
    this.clients.add(client);
    if (this.child) this.connect(client);
    return () => this.clients.delete(client);
  }

  /** Gives one client a fresh port (a reloaded window asks again). */
  reconnect(client: HistoryClient): void {
    if (this.child && this.clients.has(client)) this.connect(client);
  }

  stop(): void {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.child?.kill();
    this.child = null;
  }

  private connect(client: HistoryClient): void {
    const { port1, port2 } = new MessageChannelMain();
    this.child?.postMessage(null, [port1]);
    client.connected(port2);
  }

  private exited(child: UtilityProcess, code: number): void {
    if (this.child !== child) return;
    this.child = null;
    if (this.stopping) return;
    const reason = `the history process exited with code ${code}`;
    console.error(`hindsight: ${reason}; restarting it`);
    for (const client of this.clients) client.disconnected(reason);
    if (Date.now() - this.startedAt > STABLE_AFTER_MS) this.crashes = 0;
    const delay = RESTART_DELAYS_MS[Math.min(this.crashes, RESTART_DELAYS_MS.length - 1)] ?? 0;
    this.crashes += 1;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (!this.stopping) this.start();
    }, delay);
  }
}
