import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../helpers/tempDirs.js';

// `npm start` leaves nothing running after Ctrl+C: what it runs is a process group of its own,
// and what that group started is ended with it, even a process that, like electron-vite's esbuild
// service, outlives its parent and ignores SIGINT. Real processes: a wrapper as start.mjs runs
// it, a script that starts such a stray, SIGINT as a terminal sends it to the foreground group.

const runGroup = fileURLToPath(new URL('../../scripts/runGroup.mjs', import.meta.url));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm start’s process group', () => {
  it('ends a stray grandchild that ignores SIGINT when the script ends on Ctrl+C', async () => {
    const dir = tempDir();
    // The script: starts a stray that ignores SIGINT and is not waited for, prints its pid once the
    // stray is ready, and waits.
    const stray = join(dir, 'stray.mjs');
    writeFileSync(stray, `process.on('SIGINT', () => {}); setInterval(() => {}, 1000); console.log('ready');\n`);
    const script = join(dir, 'script.mjs');
    writeFileSync(
      script,
      `import { spawn } from 'node:child_process';\n` +
        `const s = spawn(process.execPath, [${JSON.stringify(stray)}], { stdio: ['ignore', 'pipe', 'ignore'] });\n` +
        // Told only once the stray ignores SIGINT; then it is left to itself.
        `s.stdout.once('data', () => { s.stdout.destroy(); s.unref(); console.log('stray ' + s.pid); });\n` +
        `setInterval(() => {}, 1000);\n`,
    );
    const wrapper = join(dir, 'start.mjs');
    writeFileSync(
      wrapper,
      `import { runInOwnGroup } from ${JSON.stringify(runGroup)};\nrunInOwnGroup([${JSON.stringify(script)}], { cwd: ${JSON.stringify(dir)} });\n`,
    );
    const start = spawn(process.execPath, [wrapper], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
    let strayPid = 0;
    for await (const line of createInterface({ input: start.stdout })) {
      strayPid = Number(/^stray (\d+)$/.exec(line)?.[1] ?? 0);
      if (strayPid) break;
    }
    expect(alive(strayPid)).toBe(true);

    // Ctrl+C: SIGINT to the terminal's foreground group, which is the wrapper's.
    const exited = once(start, 'exit');
    process.kill(-start.pid!, 'SIGINT');
    await exited;
    // The stray got SIGTERM from the wrapper as the script ended: wait for it to be reaped.
    while (alive(strayPid)) await new Promise((resolve) => setImmediate(resolve));
    expect(alive(strayPid)).toBe(false);
  });
});
