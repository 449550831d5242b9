import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, fstatSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as z from 'zod';
import type { Result } from '../../shared/contract/result.js';
import type { ExportResult } from '../../shared/contract/values.js';
import { folderPath, operationId, projectId } from '../../shared/contract/fields.js';
import { HindsightError } from '../../shared/errors.js';
import { MAGIC } from '../history/bundle/bundleFormat.js';
import type { Dispatcher } from '../history/dispatcher/dispatcher.js';
import { errorData } from '../history/errorData.js';
import { makePrivateDir } from '../history/privateModes.js';
import { TransferMeter } from '../history/transferMeter.js';
import { closeAfterAnswer } from './closeAfterAnswer.js';

// A history bundle to and from the browser, which has no paths: an export is written by
// exportHistory into a private temp of the data folder and handed to the page once as a download;
// an import is the page's upload, written to a private temp there (0600, size-limited, refused at
// its first bytes when it is not a bundle), given to importHistory and removed. Both run under the
// operationId the page chose, so the `cancel` call stops them like any other work, and their
// progress reaches the page as the engine's progress events. The page never names a temp path.

export const TRANSFER_DIR = 'transfers';
/** The largest upload taken unless the host is told otherwise (and never more than the disk has free). */
export const DEFAULT_MAX_UPLOAD_BYTES = 64 * 1024 ** 3;
/** An upload that sends nothing for this long is dropped. */
const UPLOAD_IDLE_MS = 60_000;
/** A prepared download nobody fetched is removed after this long. */
const DOWNLOAD_KEEP_MS = 10 * 60 * 1000;

const exportQuery = z.strictObject({ projectId, operationId, name: z.string().max(200).optional(), skipDamaged: z.literal('true').optional() });
const importQuery = z.strictObject({ operationId, as: folderPath.optional() });

/** Temps older than this are left from a host that was killed: the next host removes them. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/** What POST /transfer/export answers: the export's result and where to download the bundle, once. */
export interface PreparedDownload {
  download: string;
  result: ExportResult;
}

interface Ready {
  file: string;
  name: string;
  timer: NodeJS.Timeout;
}

export class BundleTransfers {
  private readonly ready = new Map<string, Ready>();
  private readonly dir: string;

  constructor(
    private readonly dispatcher: Dispatcher,
    private readonly maxUploadBytes = DEFAULT_MAX_UPLOAD_BYTES,
  ) {
    this.dir = join(dispatcher.engine.dataDir, TRANSFER_DIR);
    sweepStale(this.dir);
  }

  /** Answers a /transfer/ request (already authorized); false when the path is none of ours. */
  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const path = url.pathname;
    if (path === '/transfer/export' && req.method === 'POST') await this.exportForDownload(req, res, url);
    else if (path === '/transfer/import' && req.method === 'POST') await this.importUpload(req, res, url);
    else if (path.startsWith('/transfer/download/') && req.method === 'GET') this.sendDownload(res, path.slice('/transfer/download/'.length));
    else return false;
    return true;
  }

  /** Removes every temp this host made (downloads nobody fetched). */
  close(): void {
    for (const id of [...this.ready.keys()]) this.forget(id);
  }

  private async exportForDownload(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const query = parse(exportQuery, url);
    if (!query.ok) return answer(res, 400, query);
    const { projectId: project, operationId: op } = query.value;
    const skipDamaged = query.value.skipDamaged === 'true';
    const { file, id } = this.newTemp('export');
    const outcome = await this.dispatcher
      .run(op, (signal) => {
        const stop = stopWhenGone(req, res, signal);
        return this.dispatcher.engine.exportHistory(project, { file }, { operationId: op, signal: stop.signal, skipDamaged }).finally(stop.done);
      })
      .then(
        (result): Result<PreparedDownload> => ({ ok: true, value: { result: { ...result, to: null }, download: `/transfer/download/${id}` } }),
        (error: unknown): Result<never> => ({ ok: false, error: errorData(error) }),
      );
    if (!outcome.ok) {
      rmSync(file, { force: true });
      return answer(res, statusOf(outcome.error.code), outcome);
    }
    const timer = setTimeout(() => this.forget(id), DOWNLOAD_KEEP_MS);
    timer.unref();
    this.ready.set(id, { file, name: downloadName(query.value.name), timer });
    answer(res, 200, outcome);
  }

  private sendDownload(res: ServerResponse, id: string): void {
    const ready = this.ready.get(id);
    if (!ready) return void answer(res, 404, failure('NOT_FOUND', 'That download is gone: it is handed out once. Export the history again.'));
    // Handed out once: a second fetch of the same URL finds nothing.
    this.ready.delete(id);
    clearTimeout(ready.timer);
    // Opened, then removed at once: the open file is all the download needs, and nothing is left
    // behind however the download ends (where an open file cannot be removed, it goes after).
    const fd = openSync(ready.file, 'r');
    const size = fstatSync(fd).size;
    let removed = true;
    try {
      rmSync(ready.file, { force: true });
    } catch {
      removed = false;
    }
    res.writeHead(200, {
      'Content-Type': 'application/octet-stream',
      'Content-Length': size,
      'Content-Disposition': `attachment; filename="${ready.name}"`,
      'Cache-Control': 'no-store',
    });
    void pipeline(createReadStream('', { fd }), res)
      .catch(() => undefined) // the browser went away: its download failed, the temp is gone anyway
      .finally(() => removed || rmSync(ready.file, { force: true }));
  }

  private async importUpload(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const query = parse(importQuery, url);
    if (!query.ok) return refuseUpload(req, res, 400, query);
    const length = Number(req.headers['content-length']);
    if (!Number.isSafeInteger(length) || length <= 0) {
      return refuseUpload(req, res, 411, failure('BAD_REQUEST', 'An upload must say its length (Content-Length) and carry a bundle.'));
    }
    const limit = Math.min(this.maxUploadBytes, await this.freeBytes());
    if (length > limit) {
      const why = limit < this.maxUploadBytes ? 'more than the disk of the data folder has free' : `more than this host takes (${this.maxUploadBytes} bytes)`;
      return refuseUpload(req, res, 413, failure('BAD_REQUEST', `The bundle is ${length} bytes, ${why}.`, { size: length, limit }));
    }
    const { operationId: op, as } = query.value;
    const { file } = this.newTemp('upload');
    const engine = this.dispatcher.engine;
    const outcome = await this.dispatcher
      .run(op, async (signal) => {
        const stop = stopWhenGone(req, res, signal);
        try {
          // The upload is the import's first phase; its project is not known until the header is read.
          const meter = new TransferMeter('import', '', (p) => engine.events.emit({ event: 'progress', payload: { ...p, operationId: op } }));
          req.setTimeout(UPLOAD_IDLE_MS, () => req.destroy(new Error('the upload stalled')));
          await receive(req, file, length, stop.signal, meter);
          req.setTimeout(0); // the import that follows sends nothing until it answers
          return await engine.importHistory({ file }, { as, operationId: op, signal: stop.signal });
        } finally {
          stop.done();
        }
      })
      .then(
        (value): Result<unknown> => ({ ok: true, value }),
        (error: unknown): Result<never> => ({ ok: false, error: errorData(error) }),
      )
      .finally(() => rmSync(file, { force: true }));
    if (!outcome.ok) return refuseUpload(req, res, statusOf(outcome.error.code), outcome);
    answer(res, 200, outcome);
  }

  private newTemp(kind: 'export' | 'upload'): { file: string; id: string } {
    makePrivateDir(this.dir);
    const id = randomBytes(16).toString('hex');
    // The host's pid in the name lets the next host tell a killed host's temps from a running one's.
    return { id, file: join(this.dir, `${kind}-${process.pid}-${randomUUID()}.hsb`) };
  }

  private forget(id: string): void {
    const ready = this.ready.get(id);
    if (!ready) return;
    this.ready.delete(id);
    clearTimeout(ready.timer);
    rmSync(ready.file, { force: true });
  }

  private async freeBytes(): Promise<number> {
    try {
      makePrivateDir(this.dir);
      const fs = await statfs(this.dir);
      return fs.bavail * fs.bsize;
    } catch {
      return Number.MAX_SAFE_INTEGER; // no statfs here: the write itself says DISK_FULL
    }
  }
}

/**
 * Removes temps a killed host left: those of a process no longer running, and any over an hour
 * old (a name without a pid, or a pid since given to another process). A running host's are
 * left alone: it removes its own.
 */
function sweepStale(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return; // no transfers yet
  }
  for (const name of names) {
    const file = join(dir, name);
    try {
      if (!hostRunning(name) || Date.now() - statSync(file).mtimeMs > STALE_TEMP_MS) rmSync(file, { force: true });
    } catch {
      // gone meanwhile
    }
  }
}

/** Whether the host that named this temp may still be running (true when the name says no pid). */
function hostRunning(name: string): boolean {
  const pid = /^(?:upload|export)-(\d+)-/.exec(name)?.[1];
  if (pid === undefined) return true;
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH'; // EPERM: running, as another user
  }
}

/**
 * Writes the request body to `file` (created 0600, never an existing file), checking that it
 * starts as a bundle and is exactly `length` bytes; removes the file on any failure.
 */
async function receive(req: IncomingMessage, file: string, length: number, signal: AbortSignal, meter: TransferMeter): Promise<void> {
  meter.enter('upload', { bytes: length, files: 1 });
  let seen = 0;
  const head: Buffer[] = [];
  const check = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (seen < MAGIC.length) {
        head.push(chunk.subarray(0, MAGIC.length - seen));
        const start = Buffer.concat(head);
        if (!MAGIC.subarray(0, start.length).equals(start)) {
          return done(new HindsightError('BUNDLE_CORRUPT', 'That file is not a Hindsight history bundle (it does not start with "hindsight-bundle").'));
        }
      }
      seen += chunk.length;
      if (seen > length) return done(new HindsightError('BAD_REQUEST', 'The upload is longer than it said.'));
      meter.add({ bytes: chunk.length });
      done(null, chunk);
    },
  });
  // The request is piped in rather than made part of the pipeline: a refusal must not destroy
  // it, so the answer can still go out on its connection (closeAfterAnswer).
  const written = pipeline(check, createWriteStream(file, { flags: 'wx', mode: 0o600 }), { signal });
  const broken = (error: Error) => check.destroy(error);
  req.once('error', broken);
  req.pipe(check);
  try {
    await written;
    if (seen !== length) throw new HindsightError('BUNDLE_CORRUPT', `The upload ended after ${seen} of ${length} bytes.`);
    meter.add({ files: 1 });
  } catch (error) {
    req.unpipe(check);
    rmSync(file, { force: true });
    if (signal.aborted) throw new HindsightError('CANCELLED', 'The import was cancelled; nothing was imported.');
    throw error;
  } finally {
    req.off('error', broken);
  }
}

/** A signal that also aborts when the page goes away before the answer (a closed tab, an aborted fetch). */
function stopWhenGone(req: IncomingMessage, res: ServerResponse, signal: AbortSignal): { signal: AbortSignal; done: () => void } {
  const gone = new AbortController();
  const onClose = () => {
    if (!res.writableEnded) gone.abort(new HindsightError('CANCELLED', 'The page went away.'));
  };
  req.on('aborted', onClose);
  res.on('close', onClose);
  // A page that went away while the host was still looking at its request (the free space, the
  // temp's name) fired those events before anyone listened: its upload would wait forever.
  if (req.socket.destroyed) onClose();
  return {
    signal: AbortSignal.any([signal, gone.signal]),
    done: () => {
      req.off('aborted', onClose);
      res.off('close', onClose);
    },
  };
}

function parse<T>(schema: z.ZodType<T>, url: URL): Result<T> {
  // The token may ride in the query (authorize.ts has checked it); it is no field of the request.
  const fields = Object.fromEntries([...url.searchParams].filter(([name]) => name !== 'token'));
  const parsed = schema.safeParse(fields);
  if (parsed.success) return { ok: true, value: parsed.data };
  const why = parsed.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`).join('; ');
  return failure('BAD_REQUEST', `The transfer request could not be read (${why}).`);
}

function failure(code: 'BAD_REQUEST' | 'NOT_FOUND', message: string, details?: Record<string, unknown>): Result<never> {
  return { ok: false, error: errorData(new HindsightError(code, message, details)) };
}

function statusOf(code: string): number {
  if (code === 'BAD_REQUEST' || code === 'BUNDLE_CORRUPT' || code === 'BUNDLE_VERSION') return 400;
  if (code === 'NOT_FOUND') return 404;
  if (code === 'CANCELLED') return 409;
  if (code === 'INTERNAL') return 500;
  return 422;
}

function answer(res: ServerResponse, status: number, body: Result<unknown>): void {
  if (res.headersSent || res.destroyed) return void res.end();
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store' });
  res.end(text);
}

/** Refuses an upload without keeping the rest of it: the answer, then the connection closed. */
function refuseUpload(req: IncomingMessage, res: ServerResponse, status: number, body: Result<unknown>): void {
  closeAfterAnswer(req, res);
  answer(res, status, body);
}

function downloadName(name: string | undefined): string {
  const safe = (name ?? '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 100);
  return `${safe || 'project'}-history.hsb`;
}
