import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { measureProcess, measureShell, type ProcessMeasure } from '../measureProcess.js';

// The tools a first copy is measured against, each copying one folder into a fresh place under
// `scratch`. Untimed setup (a fresh git or restic repository) runs before the clock starts. A tool
// that is not installed is skipped, and the report names it: the rig installs nothing.

export interface CopyTool {
  name: string;
  /** The program that must be on PATH, for the skip check. */
  needs: string;
  prepare?: (scratch: string) => void;
  run: (src: string, scratch: string) => Promise<ProcessMeasure>;
}

const RESTIC_ENV = { RESTIC_PASSWORD: 'hindsight-bench' };

export function hindsightTool(cli: string): CopyTool {
  return {
    name: 'hindsight',
    needs: 'node',
    // --yes: a folder past the large-folder limit (200,000 files) is copied, as the benchmark means it to be.
    run: (src, scratch) => measureProcess(process.execPath, [cli, 'open', src, '--data-dir', join(scratch, 'data'), '--json', '--yes']),
  };
}

export const cpTool: CopyTool = {
  name: 'cp -a',
  needs: 'cp',
  run: (src, scratch) => measureProcess('cp', ['-a', src, join(scratch, 'copy')]),
};

export const tarTool: CopyTool = {
  name: 'tar | tar',
  needs: 'tar',
  prepare: (scratch) => mkdirSync(join(scratch, 'copy'), { recursive: true }),
  run: (src, scratch) => measureShell(`tar -C ${quote(src)} -cf - . | tar -C ${quote(join(scratch, 'copy'))} -xf -`),
};

export const gitTool: CopyTool = {
  name: 'git add -A',
  needs: 'git',
  prepare: (scratch) => execFileSync('git', ['init', '--quiet', '--bare', join(scratch, 'git')]),
  run: (src, scratch) =>
    measureProcess('git', ['add', '-A'], {
      cwd: src,
      env: { ...process.env, GIT_DIR: join(scratch, 'git'), GIT_WORK_TREE: src },
    }),
};

export const resticTool: CopyTool = {
  name: 'restic backup',
  needs: 'restic',
  prepare: (scratch) =>
    execFileSync('restic', ['init', '--quiet', '--repo', join(scratch, 'restic')], { env: { ...process.env, ...RESTIC_ENV }, stdio: 'ignore' }),
  run: (src, scratch) =>
    measureProcess('restic', ['backup', '--quiet', '--no-cache', '--repo', join(scratch, 'restic'), '.'], {
      cwd: src,
      env: { ...process.env, ...RESTIC_ENV },
    }),
};

/** Copies each folder in turn with cp -a, as one measured process (the baseline of scenario b). */
export function runSequentialCp(srcs: readonly string[], scratch: string): Promise<ProcessMeasure> {
  const script = srcs.map((src, i) => `cp -a ${quote(src)} ${quote(join(scratch, `copy-${i}`))}`).join(' && ');
  return measureShell(script);
}

export function onPath(program: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${quote(program)}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
