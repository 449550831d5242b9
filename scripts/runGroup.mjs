// Runs a Node script as a process group of its own, in the foreground of `npm start`: Ctrl+C and
// SIGTERM go to the whole group, and when the script ends, whatever it started and left behind
// (electron-vite's esbuild service, a build watcher) is ended with it, so no process outlives
// `npm start`. (On Windows there are no process groups: the child alone is signalled.)
import { spawn } from 'node:child_process';

const groups = process.platform !== 'win32';

/**
 * @param {string[]} argv the script and its arguments, run with this Node
 * @param {{ cwd: string }} options
 */
export function runInOwnGroup(argv, { cwd }) {
  const child = spawn(process.execPath, argv, { cwd, stdio: 'inherit', detached: groups });
  const signalGroup = (signal) => {
    try {
      if (groups) process.kill(-child.pid, signal);
      else child.kill(signal);
    } catch {
      // Already gone.
    }
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => signalGroup(signal));
  child.on('exit', (code, signal) => {
    // What the script left running in its group ends with it.
    signalGroup('SIGTERM');
    process.exit(code ?? (signal === 'SIGINT' ? 130 : 143));
  });
  return child;
}
