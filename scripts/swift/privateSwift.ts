import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { request, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePorts } from './freePorts.js';
import {
  SWIFT_S3_ACCESS_KEY,
  SWIFT_S3_REGION,
  SWIFT_S3_SECRET,
  SWIFT_SERVERS,
  serverConf,
  swiftConf,
  swiftConfFile,
  type SwiftPorts,
  type SwiftServer,
} from './swiftConfigs.js';

// A private OpenStack Swift with its S3 API, for tests and benchmarks: account, container,
// object and proxy servers and a memcached, each a background process started from configs in a
// temp folder, on free loopback ports found at start (other test runs share the machine). Every
// process dies with the one that started it. Nothing here is a fake: it is the real server.

export const SWIFT_PYTHON = '/usr/bin/python3';
const LAUNCHER = fileURLToPath(new URL('./launchSwift.py', import.meta.url));
const READY_WITHIN_MS = 90_000;
const START_ATTEMPTS = 3;

export interface SwiftEndpoint {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export interface PrivateSwift extends SwiftEndpoint {
  dir: string;
  /** With `tls`: the self-signed certificate the proxy serves, for clients to trust. */
  caFile?: string;
  ports: SwiftPorts;
  /** The proxy's log: every request the S3 API answered is one access line in it. */
  proxyLog: string;
  /** Stops the proxy (the object store goes away for clients) and starts it again on its port. */
  stopProxy(signal?: NodeJS.Signals): Promise<void>;
  startProxy(): Promise<void>;
  stop(): Promise<void>;
}

export class SwiftUnavailableError extends Error {
  constructor(readonly missing: string[]) {
    super(
      `OpenStack Swift is not installed here (missing ${missing.join(', ')}). Install: apt-get install swift swift-proxy swift-object swift-container swift-account python3-swift memcached`,
    );
    this.name = 'SwiftUnavailableError';
  }
}

/** What of Debian's Swift packages is missing on this machine (empty when all are there). */
export function missingSwiftParts(): string[] {
  const parts: [string, string][] = [
    [SWIFT_PYTHON, 'python3'],
    ['/usr/bin/memcached', 'memcached'],
    ['/usr/lib/python3/dist-packages/swift/proxy/server.py', 'swift-proxy'],
    ['/usr/lib/python3/dist-packages/swift/obj/server.py', 'swift-object'],
    ['/usr/lib/python3/dist-packages/swift/container/server.py', 'swift-container'],
    ['/usr/lib/python3/dist-packages/swift/account/server.py', 'swift-account'],
    ['/usr/lib/python3/dist-packages/swift/common/middleware/s3api/s3api.py', 'python3-swift (s3api)'],
  ];
  return parts.filter(([path]) => !existsSync(path)).map(([, name]) => name);
}

export interface StartOptions {
  parentDir?: string;
  /**
   * Serve HTTPS with a self-signed certificate for 127.0.0.1. Some clients (restic's minio-go)
   * send aws-chunked uploads over plain HTTP, which Swift's s3api refuses; over TLS they do not.
   */
  tls?: boolean;
}

export async function startSwift(options: StartOptions = {}): Promise<PrivateSwift> {
  const missing = missingSwiftParts();
  if (missing.length > 0) throw new SwiftUnavailableError(missing);
  let lastError: unknown;
  for (let attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
    const dir = mkdtempSync(join(options.parentDir ?? tmpdir(), 'hindsight-swift-'));
    const instance = new SwiftInstance(dir, await pickPorts(), options.tls === true);
    try {
      await instance.start();
      return instance.handle();
    } catch (error) {
      lastError = error;
      await instance.stop();
      // A port taken by someone else between picking and binding: try again with new ports.
      if (!(error instanceof PortTakenError)) break;
    }
  }
  throw lastError;
}

class PortTakenError extends Error {}

async function pickPorts(): Promise<SwiftPorts> {
  const [proxy, account, container, object, memcached] = await freePorts(5);
  return { proxy: proxy!, account: account!, container: container!, object: object!, memcached: memcached! };
}

class SwiftInstance {
  private readonly children = new Map<SwiftServer | 'memcached', ChildProcess>();
  private stopping = false;

  constructor(
    readonly dir: string,
    readonly ports: SwiftPorts,
    readonly tls: boolean,
  ) {}

  private get tlsFiles(): { cert: string; key: string } | undefined {
    return this.tls ? { cert: join(this.dir, 'tls.crt'), key: join(this.dir, 'tls.key') } : undefined;
  }

  async start(): Promise<void> {
    if (this.tlsFiles) makeCertificate(this.tlsFiles);
    this.writeConfigs();
    this.buildRings();
    this.spawn('memcached', ['memcached', String(this.ports.memcached)]);
    for (const server of SWIFT_SERVERS) this.spawn(server, ['serve', this.dir, server, swiftConfFile(this.dir, server)]);
    await this.waitReady();
  }

  handle(): PrivateSwift {
    return {
      endpoint: `${this.tls ? 'https' : 'http'}://127.0.0.1:${this.ports.proxy}`,
      caFile: this.tlsFiles?.cert,
      region: SWIFT_S3_REGION,
      accessKeyId: SWIFT_S3_ACCESS_KEY,
      secretAccessKey: SWIFT_S3_SECRET,
      dir: this.dir,
      ports: this.ports,
      proxyLog: this.logFile('proxy-server'),
      stopProxy: (signal) => this.stopChild('proxy-server', signal),
      startProxy: async () => {
        this.spawn('proxy-server', ['serve', this.dir, 'proxy-server', swiftConfFile(this.dir, 'proxy-server')]);
        await this.waitReady();
      },
      stop: () => this.stop(),
    };
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.children.keys()].map((name) => this.stopChild(name)));
    rmSync(this.dir, { recursive: true, force: true });
  }

  private writeConfigs(): void {
    mkdirSync(join(this.dir, 'srv', 'd1'), { recursive: true });
    mkdirSync(join(this.dir, 'logs'));
    writeFileSync(join(this.dir, 'swift.conf'), swiftConf());
    for (const server of SWIFT_SERVERS) writeFileSync(swiftConfFile(this.dir, server), serverConf(this.dir, server, this.ports, this.tlsFiles));
  }

  private buildRings(): void {
    const { account, container, object } = this.ports;
    const built = spawnSync(SWIFT_PYTHON, [LAUNCHER, 'rings', this.dir, String(account), String(container), String(object)], {
      encoding: 'utf8',
    });
    if (built.status !== 0) throw new Error(`Building the Swift rings failed: ${built.stderr || built.error?.message}`);
  }

  private logFile(name: string): string {
    return join(this.dir, 'logs', `${name}.log`);
  }

  private spawn(name: SwiftServer | 'memcached', args: string[]): void {
    const log = openSync(this.logFile(name), 'a');
    try {
      const child = spawn(SWIFT_PYTHON, [LAUNCHER, ...args], {
        stdio: ['ignore', log, log],
        env: { ...process.env, HINDSIGHT_SWIFT_PARENT: String(process.pid), PYTHONDONTWRITEBYTECODE: '1' },
      });
      this.children.set(name, child);
      child.once('exit', () => {
        if (this.children.get(name) === child) this.children.delete(name);
      });
    } finally {
      closeSync(log);
    }
  }

  private stopChild(name: SwiftServer | 'memcached', signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.children.get(name);
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const force = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill(signal);
    });
  }

  /** Every server listening, the proxy healthy, and one signed S3 request answered. */
  private async waitReady(): Promise<void> {
    const deadline = Date.now() + READY_WITHIN_MS;
    const ports: [SwiftServer | 'memcached', number][] = [
      ['memcached', this.ports.memcached],
      ['account-server', this.ports.account],
      ['container-server', this.ports.container],
      ['object-server', this.ports.object],
      ['proxy-server', this.ports.proxy],
    ];
    for (const [name, port] of ports) {
      while (!(await accepts(port))) {
        this.assertRunning(name);
        if (Date.now() > deadline) throw new Error(`Swift's ${name} did not listen on ${port} within ${READY_WITHIN_MS / 1000} s.\n${this.logTail(name)}`);
        await delay(100);
      }
    }
    while ((await healthStatus(this.ports.proxy, this.tlsFiles?.cert)) !== 200) {
      this.assertRunning('proxy-server');
      if (Date.now() > deadline) throw new Error(`Swift's proxy never answered /healthcheck.\n${this.logTail('proxy-server')}`);
      await delay(200);
    }
  }

  private assertRunning(name: SwiftServer | 'memcached'): void {
    if (this.children.has(name) || this.stopping) return;
    const tail = this.logTail(name);
    if (/Address already in use|could not bind/i.test(tail)) throw new PortTakenError(`${name}: port taken.\n${tail}`);
    throw new Error(`Swift's ${name} exited while starting.\n${tail}`);
  }

  private logTail(name: string): string {
    try {
      return readFileSync(this.logFile(name), 'utf8').split('\n').slice(-15).join('\n');
    } catch {
      return '(no log)';
    }
  }
}

/** A self-signed certificate for 127.0.0.1 (openssl, as Debian ships it). */
function makeCertificate(files: { cert: string; key: string }): void {
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      files.key,
      '-out',
      files.cert,
      '-days',
      '7',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`Making the TLS certificate failed (is openssl installed?): ${made.stderr || made.error?.message}`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function healthStatus(port: number, caFile?: string): Promise<number> {
  return new Promise((resolve) => {
    const options = { host: '127.0.0.1', port, path: '/healthcheck', timeout: 5000 };
    const send = caFile ? (o: object, cb: (res: IncomingMessage) => void) => httpsRequest({ ...o, ca: readFileSync(caFile) }, cb) : request;
    const req = send(options, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once('error', () => resolve(0));
    req.once('timeout', () => req.destroy());
    req.end();
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
