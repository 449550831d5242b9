import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tempDirs.js';

// A fresh clone stays clean after `npm install`: the lock file already says which packages have
// an install script (npm adds `hasInstallScript` where it finds one, and a binding.gyp counts even
// with "gypfile": false), and package.json's allowScripts approves each of them by name, so npm
// prints no warning about unreviewed install scripts. Checked against the installed packages.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean; optional?: boolean }>;
};
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };

/** Whether npm treats an installed package as having an install script. */
function hasInstallScript(dir: string): boolean {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  const scripts = pkg.scripts ?? {};
  return ['preinstall', 'install', 'postinstall'].some((name) => name in scripts) || existsSync(join(dir, 'binding.gyp'));
}

const installed = Object.keys(lock.packages).filter((key) => key.startsWith('node_modules/') && existsSync(join(ROOT, key, 'package.json')));
const npmVersion = spawnSync('npm', ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? '';
const npmHasInstallScripts = npmVersion !== '' && spawnSync('npm', ['help', 'install-scripts'], { stdio: 'ignore' }).status === 0;

describe('install scripts', () => {
  it('the lock file marks every installed package that has an install script, as npm install writes it', () => {
    expect(installed.length).toBeGreaterThan(100);
    const differ = installed.filter((key) => (lock.packages[key]!.hasInstallScript === true) !== hasInstallScript(join(ROOT, key)));
    expect(differ).toEqual([]);
  });

  it('package.json approves exactly the packages with install scripts, by name (the lock file has no resolved URLs to pin against)', () => {
    const withScripts = installed.filter((key) => lock.packages[key]!.hasInstallScript === true).map((key) => key.slice(key.lastIndexOf('node_modules/') + 13));
    expect(withScripts.length).toBeGreaterThan(0);
    expect(Object.keys(manifest.allowScripts ?? {}).sort()).toEqual([...new Set(withScripts)].sort());
    expect(Object.values(manifest.allowScripts ?? {}).every((allowed) => allowed === true)).toBe(true);
  });

  it.skipIf(!npmHasInstallScripts)('npm finds no unreviewed install script (skipped where npm has no install-scripts command, before 11.19)', () => {
    // The manifest and the lock file alone, in a folder of their own: npm reads the lock and warns
    // about what allowScripts leaves out, offline and without installing anything.
    const dir = tempDir('hindsight-npm-');
    for (const name of ['package.json', 'package-lock.json']) copyFileSync(join(ROOT, name), join(dir, name));
    const run = spawnSync('npm', ['install', '--package-lock-only', '--offline', '--no-audit', '--no-fund'], { cwd: dir, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/install.scripts|allowScripts/i);
    expect(readFileSync(join(dir, 'package-lock.json'), 'utf8')).toBe(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
  });
});
