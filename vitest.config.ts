import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    env: {
      // Tests run from TypeScript sources; the copy workers run the built worker file.
      HINDSIGHT_COPY_WORKER: `${root}out/cli/copyWorker.js`,
    },
  },
});
