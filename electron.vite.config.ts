import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';

// The app's three builds. main: the main process plus the history process entry and its workers
// (copy, prune planner, search index build, push packing), side by side in out/main/ (the engine finds them beside its entry). preload:
// one CommonJS file with everything bundled (sandboxed preloads cannot load modules). renderer:
// the viewer, plus the browser host's bridge at a fixed name the host injects.

const root = import.meta.dirname;
const at = (path: string) => resolve(root, path);

/** The dev server's React refresh needs an inline script and its CSS arrives as <style> tags; the built page keeps the strict policy. */
function devCsp(): Plugin {
  return {
    name: 'hindsight-dev-csp',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
  };
}

export default defineConfig({
  main: {
    build: {
      outDir: at('out/main'),
      externalizeDeps: true,
      rollupOptions: {
        input: {
          index: at('electron/main/index.ts'),
          entry: at('electron/history/entry.ts'),
          copyWorker: at('electron/history/store/copyWorker.ts'),
          pruneWorker: at('electron/history/retention/pruneWorker.ts'),
          indexWorker: at('electron/history/search/indexWorker.ts'),
          commitWorker: at('electron/history/db/commitWorker.ts'),
          searchWorker: at('electron/history/search/searchWorker.ts'),
          packWorker: at('electron/history/remote/push/packWorker.ts'),
          compactWorker: at('electron/history/compact/compactWorker.ts'),
          readWorker: at('electron/history/store/readWorker.ts'),
        },
        output: { format: 'es', entryFileNames: '[name].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: at('out/preload'),
      externalizeDeps: false,
      rollupOptions: {
        input: { index: at('electron/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: at('renderer'),
    plugins: [react(), devCsp()],
    build: {
      outDir: at('out/renderer'),
      rollupOptions: {
        input: {
          index: at('renderer/index.html'),
          'hindsight-bridge': at('electron/host/page/browserBridge.ts'),
        },
        output: {
          entryFileNames: (chunk) => (chunk.name === 'hindsight-bridge' ? 'assets/hindsight-bridge.js' : 'assets/[name]-[hash].js'),
        },
      },
    },
  },
});
