import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { appBlocker, missingBuilds } from '../../scripts/startPlan.mjs';
import { tempDir } from '../helpers/tempDirs.js';

// `npm start` runs the main job everywhere: the Electron app where it can start, else one line
// saying why, then the viewer in a browser, built first if it is missing.

const checkout = fileURLToPath(new URL('../../', import.meta.url));

/** A checkout-shaped folder with an Electron binary where the electron package puts it. */
function withElectron(): string {
  const root = tempDir();
  mkdirSync(join(root, 'node_modules/electron/dist'), { recursive: true });
  writeFileSync(join(root, 'node_modules/electron/path.txt'), 'electron');
  writeFileSync(join(root, 'node_modules/electron/dist/electron'), '');
  return root;
}

describe('what npm start can do here', () => {
  it('says why Electron cannot start: no binary, no display', () => {
    const linux = { env: { DISPLAY: ':0' }, platform: 'linux' };
    expect(appBlocker({ root: tempDir(), ...linux })).toMatch(/^the Electron binary is not installed/);
    const root = withElectron();
    expect(appBlocker({ root, ...linux })).toBeNull();
    expect(appBlocker({ root, ...linux, env: {} })).toBe('there is no display (DISPLAY and WAYLAND_DISPLAY are unset)');
    expect(appBlocker({ root, ...linux, env: { WAYLAND_DISPLAY: 'wayland-0' } })).toBeNull();
    expect(appBlocker({ root, ...linux, env: {}, platform: 'darwin' })).toBeNull();
  });

  it('knows which builds the browser viewer still needs', () => {
    const root = tempDir();
    expect(missingBuilds(root)).toEqual(['cli', 'viewer']);
    mkdirSync(join(root, 'out/cli'), { recursive: true });
    writeFileSync(join(root, 'out/cli/hindsight.js'), '');
    expect(missingBuilds(root)).toEqual(['cli', 'viewer']);
    writeFileSync(join(root, 'out/cli/main.js'), '');
    expect(missingBuilds(root)).toEqual(['cli', 'viewer']);
    writeFileSync(join(root, 'out/cli/copyWorker.js'), '');
    expect(missingBuilds(root)).toEqual(['cli', 'viewer']);
    writeFileSync(join(root, 'out/cli/pruneWorker.js'), '');
    expect(missingBuilds(root)).toEqual(['cli', 'viewer']);
    writeFileSync(join(root, 'out/cli/indexWorker.js'), '');
    expect(missingBuilds(root)).toEqual(['cli', 'viewer']);
    writeFileSync(join(root, 'out/cli/commitWorker.js'), '');
    expect(missingBuilds(root)).toEqual(['cli', 'viewer']);
    writeFileSync(join(root, 'out/cli/searchWorker.js'), '');
    expect(missingBuilds(root)).toEqual(['cli', 'viewer']);
    writeFileSync(join(root, 'out/cli/packWorker.js'), '');
    expect(missingBuilds(root)).toEqual(['cli', 'viewer']);
    writeFileSync(join(root, 'out/cli/compactWorker.js'), '');
    expect(missingBuilds(root)).toEqual(['cli', 'viewer']);
    writeFileSync(join(root, 'out/cli/readWorker.js'), '');
    expect(missingBuilds(root)).toEqual(['viewer']);
    mkdirSync(join(root, 'out/renderer'), { recursive: true });
    writeFileSync(join(root, 'out/renderer/index.html'), '');
    expect(missingBuilds(root)).toEqual([]);
  });

  const env = { ...process.env };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  const blocker = appBlocker({ root: checkout, env, platform: process.platform });

  it.skipIf(blocker === null)('without Electron, says why in one line and serves the viewer at the URL it prints', async () => {
    const dataDir = tempDir('hindsight-data-');
    // As a person runs it: npm start (its own banner silenced), arguments after -- for the viewer.
    const child = spawn('npm', ['start', '--silent', '--', '--data-dir', dataDir], { cwd: checkout, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const lines: string[] = [];
    let url: string | undefined;
    for await (const line of createInterface({ input: child.stdout })) {
      lines.push(line);
      url = /^Hindsight is serving the viewer at (http:\/\/127\.0\.0\.1:\d+\/\S*)$/.exec(line)?.[1];
      if (url) break;
    }
    expect(lines[0]).toBe(`Electron cannot start here: ${blocker}. Serving the viewer to a browser instead.`);
    expect(lines.filter((l) => l.startsWith('Electron cannot start'))).toHaveLength(1);
    expect(url, `${lines.join('\n')}\n${stderr}`).toBeDefined();
    const page = await fetch(url!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    // Ctrl+C as a terminal sends it: SIGINT to the whole foreground process group. 'close' comes
    // once every process holding the output pipes (npm, the script, the server) has exited.
    const closed = once(child, 'close');
    process.kill(-child.pid!, 'SIGINT');
    const [code, signal] = (await closed) as [number | null, NodeJS.Signals | null];
    expect(code === 0 || signal === 'SIGINT', `exit ${code} ${signal}`).toBe(true);
    expect(stderr).toBe('');
    await expect(fetch(url!)).rejects.toThrow();
  });
});
