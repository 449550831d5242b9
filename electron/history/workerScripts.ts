import { dirname, join } from 'node:path';

// Where the history process's worker threads find their scripts (the copy worker, the prune
// planner, the search index build, the search, the push's pack workers, the read-ahead threads):
// built files that lie side by side, beside the entry point that starts them (the CLI's out/cli/,
// the app's out/main/, the benchmarks' out/bench/). The module doing the spawning may sit in a
// shared chunk in another folder, so each entry point names its own folder.

export type WorkerName = 'copyWorker' | 'pruneWorker' | 'indexWorker' | 'searchWorker' | 'packWorker' | 'compactWorker' | 'readWorker' | 'commitWorker';

let entryDir: URL | undefined;

/** Called by each entry point with its own folder (`new URL('./', import.meta.url)`). */
export function setWorkerScriptsDir(dir: URL): void {
  entryDir = dir;
}

export function workerScript(name: WorkerName): string | URL {
  // HINDSIGHT_COPY_WORKER: tests run from sources and point at the built copy worker; the other
  // workers are built beside it.
  const copyWorker = process.env.HINDSIGHT_COPY_WORKER;
  if (copyWorker) return name === 'copyWorker' ? copyWorker : join(dirname(copyWorker), `${name}.js`);
  return new URL(`./${name}.js`, entryDir ?? import.meta.url);
}
