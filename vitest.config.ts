import { configDefaults, defineConfig } from 'vitest/config';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

// Two projects: the local suites, and the remote suites (test/remote/), which talk to a real
// OpenStack Swift that their own global setup starts only when one of them is in the run.
const shared = {
  testTimeout: 60_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
  env: {
    // Tests run from TypeScript sources; the copy workers run the built worker file.
    HINDSIGHT_COPY_WORKER: `${root}out/cli/copyWorker.js`,
  },
};

export default defineConfig({
  test: {
    // Two test files at a time even on 2 cores (vitest's default there is one): many files mostly
    // wait (quiet windows, child processes, a server), and every test holds on a loaded machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The root project's setup runs for every run: it builds the CLI and the copy worker.
    globalSetup: ['test/helpers/globalSetup.ts'],
    projects: [
      { test: { ...shared, name: 'local', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, 'test/remote/**'] } },
      { test: { ...shared, name: 'remote', include: ['test/remote/**/*.test.ts'], globalSetup: ['test/remote/swiftSetup.ts'] } },
    ],
  },
});
