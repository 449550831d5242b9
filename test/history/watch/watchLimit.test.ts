import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineEvent } from '../../../shared/contract.js';
import { sha256 } from '../../helpers/writeTree.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';
import { cliJson, finished, runCli, startCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { until } from '../../helpers/until.js';

// The viewer's way in (open with watch, as the app and the browser host do) when the OS refuses
// the watch for its limit: one error event saying so with the fix, and changes found by the
// periodic rescans of the fallbackRescanSeconds setting. The refusal comes from the failure point
// watch-setup (faultPoint.ts), as the OS's ENOSPC.

/** Waits (without a time limit of its own: the test's timeout is the limit) until `ready` holds. */

beforeEach(() => {
  process.env.HINDSIGHT_FAIL_AT = 'watch-setup:ENOSPC';
});

afterEach(() => {
  delete process.env.HINDSIGHT_FAIL_AT;
});

describe('a watch the OS refuses', () => {
  it('is announced once as WATCH_LIMIT with the fix, and the periodic rescans record every change', async () => {
    const { engine, root, projectId, store } = await projectWithBaseline({ 'a.txt': 'one' });
    await engine.editConfig({ settings: { fallbackRescanSeconds: 1, quietWindowMs: 50 } });
    const events: EngineEvent[] = [];
    engine.events.on((event) => events.push(event));
    await engine.open(root, { watch: true });
    const refusals = () => events.filter((e) => e.event === 'error' && e.payload.error.code === 'WATCH_LIMIT');
    expect(refusals()).toHaveLength(1);
    const [refused] = refusals();
    expect(refused).toMatchObject({ payload: { projectId, error: { details: { errno: 'ENOSPC', everySeconds: 1 } } } });
    expect(refused!.event === 'error' && refused!.payload.error.message).toContain('fs.inotify.max_user_watches');

    writeFileSync(join(root, 'a.txt'), 'two');
    await until(() => store.index.versions.versionsOf('a.txt').length === 2);
    writeFileSync(join(root, 'b.txt'), 'b');
    await until(() => store.index.versions.versionsOf('b.txt').length === 1);
    expect(store.index.versions.versionsOf('a.txt').map((v) => v.hash)).toEqual([sha256('one'), sha256('two')]);
    expect(refusals()).toHaveLength(1);
  });

  it('is said once on stderr by `hindsight watch FOLDER`, which records by rescans meanwhile', async () => {
    const root = tempDir();
    const data = tempDir('hindsight-data-');
    writeTree(root, { 'a.txt': 'one' });
    await cliJson(['open', root, '--data-dir', data]);
    expect((await runCli(['config', 'set', 'fallbackRescanSeconds', '1', '--data-dir', data])).code).toBe(0);
    const child = startCli(['watch', root, '--data-dir', data, '--json', '--quiet-ms', '50'], { HINDSIGHT_FAIL_AT: 'watch-setup:ENOSPC' });
    const done = finished(child);
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    await until(() => out.includes('"watching":true'));
    writeFileSync(join(root, 'a.txt'), 'two');
    await until(() => out.includes('"a.txt"'));
    child.kill('SIGINT');
    expect((await done).code).toBe(0);
    expect(err.match(/is rescanned every/g)).toHaveLength(1);
    expect(err).toContain(`${root} is rescanned every 1 s instead of watched; to watch it live, raise fs.inotify.max_user_watches`);
  });

  it('refuses a fallbackRescanSeconds below one second', async () => {
    const { engine } = await projectWithBaseline({ 'a.txt': 'one' });
    await expect(engine.editConfig({ settings: { fallbackRescanSeconds: 0 } })).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    expect(engine.configView().settings.fallbackRescanSeconds).toBe(60);
  });
});
