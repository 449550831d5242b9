import { describe, expect, it, onTestFinished } from 'vitest';
import { MessageChannel } from 'node:worker_threads';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createContractClient, type ContractClient } from '../../../shared/contract/client.js';
import type { HindsightEvent } from '../../../shared/contract.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { createDispatcher } from '../../../electron/history/dispatcher/dispatcher.js';
import { servePort } from '../../../electron/history/dispatcher/servePort.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// The viewer's calls over a real MessageChannel (structured clones, as between a window and the
// history process): the shared client on one port, the dispatcher on the other.

function connect(watch = false): { client: ContractClient; events: HindsightEvent[]; engine: HistoryEngine } {
  const engine = new HistoryEngine(tempDir('hindsight-data-'));
  const dispatcher = createDispatcher(engine, { watch });
  const { port1, port2 } = new MessageChannel();
  const stop = servePort(dispatcher, port1);
  const client = createContractClient();
  port2.on('message', (message) => client.receive(message));
  client.connect({ send: (message) => port2.postMessage(message) });
  const events: HindsightEvent[] = [];
  client.onEvent((event) => events.push(event));
  onTestFinished(async () => {
    stop();
    port2.close();
    await dispatcher.close();
    engine.close();
  });
  return { client, events, engine };
}

async function value<T>(promise: Promise<{ ok: true; value: T } | { ok: false; error: unknown }>): Promise<T> {
  const result = await promise;
  if (!result.ok) throw new Error(`call failed: ${JSON.stringify(result.error)}`);
  return result.value;
}

describe('the dispatcher over a MessageChannel', () => {
  it('opens a folder, lists it, reads versions and diffs a version against the disk', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'alpha\n', 'dir/b.txt': 'beta\n', 'dir/same.txt': 'alpha\n', 'bin.dat': Buffer.from([0, 1, 2, 255]) });
    const { client, events } = connect();
    const { calls } = client;

    const opened = await value(calls.openProject({ path: root, operationId: 'open-1' }));
    expect(opened.firstCopy).toBe(true);
    expect(opened.project).toMatchObject({ projectId: opened.projectId, open: true, state: 'present' });
    const { projectId } = opened;
    const progress = events.filter((e) => e.event === 'progress');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toMatchObject({ payload: { operation: 'first-copy', phase: 'done', operationId: 'open-1', projectId } });
    expect(events.some((e) => e.event === 'snapshot' && e.payload.snapshot.kind === 'baseline')).toBe(true);

    expect((await value(calls.listProjects({}))).map((p) => p.projectId)).toEqual([projectId]);
    const tree = await value(calls.fileTree({ projectId }));
    expect(Array.isArray(tree) && tree.map((f) => f.path)).toEqual(['a.txt', 'bin.dat', 'dir/b.txt', 'dir/same.txt']);
    // With a folder: that folder's level only, across the same socket.
    const level = await value(calls.fileTree({ projectId, folder: 'dir' }));
    expect(!Array.isArray(level) && level.files.map((f) => f.path)).toEqual(['dir/b.txt', 'dir/same.txt']);
    expect(await calls.fileTree({ projectId, folder: '../outside' })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(await calls.fileTree({ projectId, folder: '/etc' })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });

    const text = await value(calls.readVersion({ projectId, path: 'a.txt' }));
    expect(text).toMatchObject({ encoding: 'utf8', data: 'alpha\n', truncated: false, size: 6, binary: false });
    const binary = await value(calls.readVersion({ projectId, path: 'bin.dat' }));
    expect(binary).toMatchObject({ encoding: 'base64', binary: true, data: Buffer.from([0, 1, 2, 255]).toString('base64') });
    const head = await value(calls.readVersion({ projectId, path: 'a.txt', maxBytes: 3 }));
    expect(head).toMatchObject({ data: 'alp', truncated: true, size: 6, returnedBytes: 3 });

    writeFileSync(join(root, 'a.txt'), 'alpha changed\n');
    const [version] = await value(calls.versions({ projectId, path: 'a.txt' }));
    const diff = await value(
      calls.diffInputs({ projectId, path: 'a.txt', before: { kind: 'version', versionId: version!.versionId }, after: { kind: 'disk' } }),
    );
    expect(diff.before?.data).toBe('alpha\n');
    expect(diff.after).toMatchObject({ data: 'alpha changed\n', versionId: null });

    const stats = await value(calls.storeStats({ projectId }));
    expect(stats).toMatchObject({ versions: 4, blobs: 3, dedupeSavedBytes: 6, snapshots: 1 });
    expect(stats.largestFiles.map((f) => f.path)).toEqual(['a.txt', 'dir/same.txt', 'dir/b.txt', 'bin.dat']);

    const verified = await value(calls.verify({ projectId, operationId: 'verify-1' }));
    expect(verified.ok).toBe(true);
    expect(events.some((e) => e.event === 'progress' && e.payload.operationId === 'verify-1')).toBe(true);
  });

  it('restores a file, announces its snapshots, and the disk holds the old bytes', async () => {
    const root = tempDir();
    writeTree(root, { 'notes.md': 'first\n' });
    const { client, events } = connect();
    const { projectId } = await value(client.calls.openProject({ path: root }));
    const [baseline] = await value(client.calls.versions({ projectId, path: 'notes.md' }));
    writeFileSync(join(root, 'notes.md'), 'second\n');

    const restored = await value(client.calls.restoreFile({ projectId, path: 'notes.md', versionId: baseline!.versionId }));
    expect(readFileSync(join(root, 'notes.md'), 'utf8')).toBe('first\n');
    expect(restored.capturedSnapshotId).not.toBeNull();
    const announced = events.flatMap((e) => (e.event === 'snapshot' ? [e.payload.snapshot.snapshotId] : []));
    expect(announced).toEqual(expect.arrayContaining([restored.capturedSnapshotId, restored.snapshotId]));
    const log = await value(client.calls.log({ projectId }));
    expect(log.map((s) => s.kind)).toEqual(['baseline', 'change', 'restore']);
  });

  it('previews and restores a snapshot, checkpoints, lists deletions and rescans, announcing each snapshot', async () => {
    const root = tempDir();
    writeTree(root, { 'keep.txt': 'one\n', 'gone.txt': 'bye\n', 'dir/a.txt': 'a\n' });
    const { client, events } = connect();
    const { calls } = client;
    const { projectId } = await value(calls.openProject({ path: root }));
    const [baseline] = await value(calls.log({ projectId }));

    writeFileSync(join(root, 'keep.txt'), 'two\n');
    rmSync(join(root, 'gone.txt'));
    writeFileSync(join(root, 'new.txt'), 'new\n');
    const rescanned = await value(calls.rescan({ projectId, operationId: 'rescan-1' }));
    expect(rescanned).toMatchObject({ projectId, changed: 3 });
    expect(rescanned.snapshotId).not.toBeNull();
    expect(events.some((e) => e.event === 'progress' && e.payload.operation === 'rescan' && e.payload.operationId === 'rescan-1')).toBe(true);

    const deleted = await value(calls.deletedFiles({ projectId }));
    expect(deleted.map((d) => d.path)).toEqual(['gone.txt']);
    expect(deleted[0]!.deletion.hash).toBeNull();
    expect(deleted[0]!.lastContents).toMatchObject({ size: 4, snapshotId: baseline!.snapshotId });

    const checkpoint = await value(calls.createCheckpoint({ projectId, label: 'before the restore' }));
    expect(checkpoint).toMatchObject({ kind: 'checkpoint', label: 'before the restore' });

    const preview = await value(calls.previewRestore({ projectId, snapshotId: baseline!.snapshotId }));
    expect(preview).toMatchObject({ write: ['keep.txt'], recreate: ['gone.txt'], added: ['new.txt'], unchanged: 1, pathPrefix: '', deleteAdded: false });
    const dry = await value(calls.restoreSnapshot({ projectId, snapshotId: baseline!.snapshotId, dryRun: true }));
    expect(dry).toMatchObject({ dryRun: true, snapshotId: null, written: 1, recreated: 1, kept: 1, deleted: 0 });
    // Files added since are counted once: deleted when the restore deletes them, else kept.
    const dryDeleting = await value(calls.restoreSnapshot({ projectId, snapshotId: baseline!.snapshotId, dryRun: true, deleteAdded: true }));
    expect(dryDeleting).toMatchObject({ dryRun: true, written: 1, recreated: 1, kept: 0, deleted: 1, preview: { delete: ['new.txt'] } });
    expect(readFileSync(join(root, 'keep.txt'), 'utf8')).toBe('two\n');

    const seen = events.length;
    const restored = await value(calls.restoreSnapshot({ projectId, snapshotId: baseline!.snapshotId, operationId: 'restore-1' }));
    expect(restored).toMatchObject({ dryRun: false, preview: null, written: 1, recreated: 1, kept: 1 });
    expect(readFileSync(join(root, 'keep.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(root, 'gone.txt'), 'utf8')).toBe('bye\n');
    expect(existsSync(join(root, 'new.txt'))).toBe(true);
    const announced = events.slice(seen).flatMap((e) => (e.event === 'snapshot' ? [e.payload.snapshot.snapshotId] : []));
    expect(announced).toContain(restored.snapshotId);
  });

  it('reads and edits the config: settings, a project renamed, pinned and forgotten', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'a' });
    const { client } = connect();
    const { calls } = client;
    const { projectId } = await value(calls.openProject({ path: root }));
    const config = await value(calls.getConfig({}));
    expect(config.error).toBeNull();
    expect(config.projects).toEqual([expect.objectContaining({ projectId, root, open: true, pinned: false })]);

    const edited = await value(
      calls.editConfig({ settings: { quietWindowMs: 500, excludePatterns: ['*.tmp'] }, projects: [{ projectId, name: 'Site', pinned: true }] }),
    );
    expect(edited.settings).toMatchObject({ quietWindowMs: 500, excludePatterns: ['*.tmp'] });
    expect(edited.projects[0]).toMatchObject({ name: 'Site', pinned: true });
    expect(await calls.editConfig({ settings: { quietWindowMs: -1 } })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(await calls.editConfig({ projects: [{ projectId: 'f'.repeat(32), pinned: true }] })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });

    await value(calls.closeProject({ projectId }));
    const forgotten = await value(calls.editConfig({ projects: [{ projectId, forget: true }] }));
    expect(forgotten.projects).toEqual([]);
    expect(await value(calls.listProjects({}))).toEqual([]);
  });

  it('records a change made while the project is open and announces its snapshot', async () => {
    const root = tempDir();
    writeTree(root, { 'live.txt': 'before\n' });
    const { client, events } = connect(true);
    // The quiet window in config.json is the one the watcher uses.
    await value(client.calls.editConfig({ settings: { quietWindowMs: 100 } }));
    const { projectId } = await value(client.calls.openProject({ path: root }));
    const seen = events.length;
    const snapshot = new Promise<void>((resolve) => {
      client.onEvent((e) => {
        if (e.event === 'snapshot' && e.payload.snapshot.kind === 'change') resolve();
      });
    });
    writeFileSync(join(root, 'live.txt'), 'after\n');
    await snapshot;
    expect(events.slice(seen).some((e) => e.event === 'snapshot' && e.payload.projectId === projectId)).toBe(true);
    const versions = await value(client.calls.versions({ projectId, path: 'live.txt' }));
    expect(versions).toHaveLength(2);
  });

  it("reads a file's committed version from git", async () => {
    const root = tempDir();
    writeTree(root, { 'tracked.txt': 'committed\n' });
    const git = (...args: string[]) => execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args]);
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'first');
    writeFileSync(join(root, 'tracked.txt'), 'edited\n');
    const { client } = connect();
    const { projectId } = await value(client.calls.openProject({ path: root }));
    const versions = await value(client.calls.gitVersions({ projectId, path: 'tracked.txt' }));
    expect(versions).toMatchObject({ repository: true, head: { text: 'committed\n', type: 'file' } });
  });

  it('lists each of two folders opened at once exactly once, from config.json and this process alike', async () => {
    const a = tempDir();
    const b = tempDir();
    writeTree(a, { 'a.txt': 'a' });
    writeTree(b, { 'b.txt': 'b' });
    const { client } = connect();
    const [one, two] = await Promise.all([value(client.calls.openProject({ path: a })), value(client.calls.openProject({ path: b }))]);
    const ids = [one.projectId, two.projectId].sort();
    expect((await value(client.calls.listProjects({}))).map((p) => p.projectId).sort()).toEqual(ids);
    expect((await value(client.calls.getConfig({}))).projects.map((p) => p.projectId).sort()).toEqual(ids);
  });

  it('cancels a first copy by its operationId: the open fails CANCELLED and leaves no baseline', async () => {
    const root = tempDir();
    const files: Record<string, string> = {};
    for (let i = 0; i < 3000; i++) files[`d${i % 30}/f${i}.txt`] = `file ${i}\n`;
    writeTree(root, files);
    const { client } = connect();
    let cancel: Promise<unknown> | undefined;
    client.onEvent((e) => {
      if (e.event === 'progress' && e.payload.operationId === 'open-big' && !cancel) cancel = client.calls.cancel({ operationId: 'open-big' });
    });
    const opened = await client.calls.openProject({ path: root, operationId: 'open-big' });
    expect(await cancel).toEqual({ ok: true, value: { cancelled: true } });
    expect(opened).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    const [known] = await value(client.calls.listProjects({}));
    expect(await client.calls.log({ projectId: known!.projectId })).toMatchObject({ ok: false, error: { code: 'NO_BASELINE' } });
    // The id is free again, and the next open finishes the copy.
    expect(await client.calls.openProject({ path: root, operationId: 'open-big' })).toMatchObject({ ok: true, value: { files: 3000 } });
  });

  it('answers bad and unknown requests with typed errors that survive the trip', async () => {
    const { client } = connect();
    const missing = await client.calls.fileTree({ projectId: '0'.repeat(32) });
    expect(missing).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    const bad = await client.calls.readVersion({ projectId: 'nope', path: '../etc/passwd' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST', details: { call: 'readVersion' } } });
    const notAFolder = await client.calls.openProject({ path: join(tempDir(), 'absent') });
    expect(notAFolder).toMatchObject({ ok: false, error: { code: 'FOLDER_NOT_FOUND' } });
    expect(await client.calls.cancel({ operationId: 'never-started' })).toEqual({ ok: true, value: { cancelled: false } });
  });

  it('fails calls in flight with DISCONNECTED when the port goes away, and serves again after a reconnect', async () => {
    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    const dispatcher = createDispatcher(engine, { watch: false });
    onTestFinished(() => engine.close());
    const client = createContractClient();
    const states: string[] = [];
    client.onEvent((e) => (e.event === 'connection' ? states.push(e.payload.state) : undefined));
    // A transport that swallows calls: the history process died before answering.
    client.connect({ send: () => undefined });
    const inFlight = client.calls.listProjects({});
    client.disconnect('exited with code 9');
    expect(await inFlight).toMatchObject({ ok: false, error: { code: 'DISCONNECTED' } });

    const queued = client.calls.listProjects({});
    const { port1, port2 } = new MessageChannel();
    const stop = servePort(dispatcher, port1);
    port2.on('message', (message) => client.receive(message));
    client.connect({ send: (message) => port2.postMessage(message) });
    expect(await queued).toEqual({ ok: true, value: [] });
    expect(states).toEqual(['lost', 'restored']);
    stop();
    port2.close();
  });
});
