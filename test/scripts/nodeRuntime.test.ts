import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runtimeRefusal } from '../../scripts/nodeRuntime.mjs';
import { CLI } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';

// Node.js 22.19 or later runs everything; an older Node gets one line from `npm start`, `npm test`
// and `hindsight` naming the version found, the version needed and how to get it, and exit 1.

const checkout = fileURLToPath(new URL('../../', import.meta.url));

/** The machine's own Node when it is older than the project supports (Debian's is 20 here). */
function olderNode(): string | null {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    if (!existsSync(candidate)) continue;
    const version = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    if (version && runtimeRefusal(version, 'probe') !== null) return candidate;
  }
  return null;
}

describe('the supported Node.js', () => {
  it('refuses what is older than 22.19 and takes 22.19 and later', () => {
    expect(runtimeRefusal('20.19.2', 'hindsight')).toBe(
      'hindsight: this is Node.js 20.19.2; Hindsight needs Node.js 22.19 or later (install the 22 LTS from https://nodejs.org/ or with a version manager: nvm install 22)',
    );
    expect(runtimeRefusal('22.18.9', 'npm test')).toMatch(/^npm test: this is Node\.js 22\.18\.9; Hindsight needs Node\.js 22\.19 or later/);
    expect(runtimeRefusal('22.15.0', 'hindsight')).not.toBeNull();
    expect(runtimeRefusal('22.12.0', 'hindsight')).not.toBeNull();
    expect(runtimeRefusal('18.20.0', 'npm start')).not.toBeNull();
    expect(runtimeRefusal('22.19.0', 'hindsight')).toBeNull();
    expect(runtimeRefusal('23.0.0', 'hindsight')).toBeNull();
    expect(runtimeRefusal('24.22.3', 'hindsight')).toBeNull();
  });

  it('runs on this Node (the one the tests run on)', () => {
    expect(runtimeRefusal(process.versions.node, 'hindsight')).toBeNull();
  });

  const older = olderNode();
  it.skipIf(older === null)("says one line and exits 1 when hindsight, npm start and npm test run on an older Node (the machine's own)", () => {
    const dataDir = tempDir('hindsight-data-');
    const runs: [string, string[]][] = [
      ['hindsight', [CLI, 'projects', '--data-dir', dataDir]],
      ['npm start', [`${checkout}scripts/start.mjs`]],
      ['npm test', [`${checkout}scripts/check-node.mjs`, 'npm test']],
    ];
    for (const [what, argv] of runs) {
      const run = spawnSync(older!, argv, { cwd: checkout, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
      expect(run.status, `${what}: ${run.stderr}`).toBe(1);
      expect(run.stdout).toBe('');
      const lines = run.stderr.split('\n').filter((l) => l !== '');
      expect(lines, what).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^${what}: this is Node\\.js 2?[0-9]\\.[0-9]+\\.[0-9]+; Hindsight needs Node\\.js 22\\.19 or later \\(install the 22 LTS from https://nodejs\\.org/`,
        ),
      );
    }
  });
});
