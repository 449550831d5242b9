import { describe, expect, it, onTestFinished } from 'vitest';
import { createInterface } from 'node:readline';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson, finished, runCli, startCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { until } from '../helpers/until.js';

// `hindsight serve` says what it records as `watch --all` does: after its URL, a line per project
// it records and per change group it writes, naming the project; --quiet leaves the URL alone.

/** A known project whose a.txt changed while nothing ran: a start's catch-up records it. */
async function changedWhileStopped(): Promise<{ data: string; root: string }> {
  const data = tempDir('hindsight-data-');
  const root = tempDir();
  writeFileSync(join(root, 'a.txt'), 'one');
  await cliJson(['open', root, '--data-dir', data]);
  writeFileSync(join(root, 'a.txt'), 'two two');
  return { data, root };
}

describe('hindsight serve prints what it records', () => {
  it('prints the URL, then a line per project recorded and per change group, as watch --all does', async () => {
    const { data, root } = await changedWhileStopped();
    const child = startCli(['serve', '--data-dir', data, '--renderer-dir', tempDir('hindsight-empty-')]);
    onTestFinished(() => void child.kill('SIGKILL'));
    const done = finished(child);
    const seen: string[] = [];
    for await (const line of createInterface({ input: child.stdout! })) {
      seen.push(line);
      if (seen.includes(`Recording ${root}`) && seen.some((l) => l.startsWith(`${root}: Snapshot `))) break;
    }
    child.kill('SIGTERM');
    expect((await done).code).toBe(0);
    expect(seen[0]).toMatch(/^Hindsight is serving the viewer at http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    expect(seen).toContain(`Recording ${root}`);
    expect(seen.find((l) => l.startsWith(`${root}: `))).toMatch(
      new RegExp(
        `^${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: Snapshot \\d+: 1 file changed \\(found by a rescan\\) · Changed while Hindsight was not running (from|at) `,
      ),
    );
  });

  it('--quiet prints the URL only, while it records all the same', async () => {
    const { data, root } = await changedWhileStopped();
    const child = startCli(['serve', '--quiet', '--json', '--data-dir', data, '--renderer-dir', tempDir('hindsight-empty-')]);
    onTestFinished(() => void child.kill('SIGKILL'));
    const done = finished(child);
    const versions = () => cliJson<unknown[]>(['log', root, 'a.txt', '--data-dir', data]);
    await until(async () => (await versions()).length >= 2, { everyMs: 100 });
    child.kill('SIGTERM');
    const result = await done;
    expect(result.code).toBe(0);
    const lines = result.stdout.toString().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:/) });
    expect((await runCli(['log', root, 'a.txt', '--data-dir', data])).code).toBe(0);
  });
});
