// Lint, and the layering docs/ARCHITECTURE.md describes checked by machine, not by hope:
// renderer/ imports only shared/; shared/ imports nothing of ours and no Node or Electron;
// electron/history/ imports electron only in its entry file; the CLI never reaches into the app;
// main and preload import only shared/ and Electron. Inside electron/history/ and renderer/,
// each folder imports only what the "Imports:" line of its README names (HISTORY_IMPORTS,
// RENDERER_IMPORTS below), so imports only go down.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

const layer = (files, patterns, paths = [], ignores = []) => ({
  files,
  ignores,
  rules: { 'no-restricted-imports': ['error', { patterns, paths }] },
});

// A call's arguments live on the stack: `push(...rows)` or `Math.max(...sizes)` overflows it at
// about 125,000 elements, which a long history reaches. A spread of an array literal (or a choice
// between two) is bounded by the source text; any other spread argument needs a reason
// (`eslint-disable-next-line no-restricted-syntax -- why it is bounded`).
export const SPREAD_ARGUMENT = {
  selector:
    ":matches(CallExpression, NewExpression) > SpreadElement:not([argument.type='ArrayExpression']):not([argument.type='ConditionalExpression'][argument.consequent.type='ArrayExpression'][argument.alternate.type='ArrayExpression'])",
  message: 'Spreading an array into a call overflows the stack past about 125,000 elements: use appendAll / maxOf / minOf (shared/largeArrays.ts) or a loop.',
};

// The blob store has one owner, electron/history/store/: its files' names, forms and temps are
// made there and nowhere else (store/README.md). Elsewhere a blob is named by its hash and read,
// written, probed or removed through the owner's functions.
const BLOB_LAYOUT = 'blobPath|compressedBlobPath|blobFilePath|blobOfFileName|COMPRESSED_SUFFIX|FAN_OUT_FOLDER|TEMP_PREFIX|namesIn';
const blobOwner = {
  files: ['electron/**/*.ts'],
  ignores: ['electron/history/store/**'],
  rules: {
    // One rule's options are replaced, not merged, by a later config: the spread check stays listed.
    'no-restricted-syntax': [
      'error',
      SPREAD_ARGUMENT,
      {
        selector: `ImportDeclaration[source.value=/storeLayout\\.js$/] ImportSpecifier[imported.name=/^(${BLOB_LAYOUT})$/]`,
        message: 'Blob files are made by the blob store (electron/history/store/) only: read, write, probe or remove a blob through it.',
      },
      {
        selector: 'ImportDeclaration[source.value=/store\\/placeBlob\\.js$/]',
        message: 'Blob temps are placed by the blob store (store/blobFiles.ts) only.',
      },
      {
        selector: 'Literal[value=/^(.*[\\/])?blobs([\\/].*)?$/]',
        message: 'A path into blobs/ is made by the blob store (electron/history/store/) only.',
      },
    ],
  },
};

const noElectron = [{ name: 'electron', message: 'Only the entry files of a process may import electron.' }];

// The folders of electron/history/ and what of electron/history/ each may import besides its own
// files, shared/, node and the top-level modules (trace.ts, fsErrors.ts ...): a folder, or one file
// of it. Each is its README's "Imports:" line; change both together. No two folders may import each
// other, and test/lint/importGraph.test.ts holds the whole graph acyclic with the TypeScript
// compiler (type imports and import() included, which this lint does not see). The layers, bottom
// to top, are drawn in electron/history/README.md. These use @typescript-eslint/no-restricted-imports,
// so the process layers' own no-restricted-imports options (which a later config would replace,
// not merge) stay as they are.
export const HISTORY_FOLDERS = [
  'bundle',
  'codec',
  'compact',
  'config',
  'copy',
  'db',
  'dispatcher',
  'git',
  'paths',
  'project',
  'recorder',
  'registry',
  'remote',
  'remoteLayout',
  'restore',
  'retention',
  'search',
  'stats',
  'store',
  'verify',
  'versions',
  'walk',
  'watch',
];
export const HISTORY_IMPORTS = {
  bundle: ['codec', 'db', 'project', 'registry', 'remoteLayout', 'restore', 'store'],
  codec: [],
  compact: ['codec', 'db', 'project', 'store'],
  config: ['project', 'store/copyConcurrency.js'],
  copy: ['project', 'store', 'walk'],
  db: ['remoteLayout'],
  dispatcher: ['recorder/recordingSwitch.js', 'historyEngine.js'],
  git: [],
  paths: [],
  project: ['db', 'git', 'paths', 'store'],
  recorder: ['config', 'project', 'versions', 'watch', 'historyEngine.js'],
  registry: ['compact', 'config', 'db', 'paths', 'project', 'restore', 'search', 'store', 'watch'],
  remote: ['config', 'db', 'project', 'registry', 'remoteLayout', 'restore', 'store'],
  remoteLayout: ['codec'],
  restore: ['db', 'git', 'paths', 'project', 'store', 'walk'],
  retention: ['db', 'git', 'project', 'store'],
  search: ['db', 'project', 'store'],
  stats: ['compact', 'project', 'store/storeDiskUsage.js'],
  store: ['codec', 'db', 'paths', 'walk'],
  verify: ['paths', 'project', 'remote/remoteOnlyBlobs.js', 'store'],
  versions: ['copy', 'db', 'git', 'paths', 'project', 'registry', 'restore', 'store', 'verify', 'walk', 'watch'],
  walk: ['git', 'paths'],
  watch: ['git', 'paths', 'project', 'walk'],
};
/** The top-level modules above every folder: only the folders whose entry names them import them. */
export const HISTORY_TOP = ['historyEngine.js', 'engineOptions.js', 'entry.js'];

const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The import specifiers `folder` may not use: every other folder, but for the parts it may import, and the engine. */
function historyPatterns(folder, allowed) {
  const message = `electron/history/${folder}/ imports only ${allowed.length ? allowed.join(', ') : 'shared/ and the top-level modules'} of electron/history/ (its README's Imports line).`;
  const patterns = [];
  for (const other of HISTORY_FOLDERS) {
    if (other === folder || allowed.includes(other)) continue;
    const parts = allowed.filter((a) => a.startsWith(`${other}/`)).map((a) => escaped(a.slice(other.length + 1)) + (a.endsWith('/') ? '' : '$'));
    patterns.push({ regex: `^(\\.\\./)+${other}/${parts.length ? `(?!(${parts.join('|')}))` : ''}`, message });
  }
  for (const top of HISTORY_TOP.filter((t) => !allowed.includes(t)))
    patterns.push({
      regex: `^(\\.\\./)+${escaped(top)}$`,
      message: 'Only the dispatcher and the recorder of every known project (recorder/) reach the engine: a folder below it gets what it needs passed in.',
    });
  return patterns;
}

const historyFolder = (folder, allowed) => ({
  files: [`electron/history/${folder}/**/*.ts`],
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: historyPatterns(folder, allowed) }] },
});

// The remote's wire formats are a leaf: shared/, zod and node, and the blob codec (a pack entry of
// encoding zstd is the store's compressed form, checked by its codec) with the trace counters it
// moves, so db/, bundle/ and remote/ can all read them.
const remoteLayout = {
  files: ['electron/history/remoteLayout/**/*.ts'],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: '^\\.\\./(?!codec/blobCodec\\.js$|trace\\.js$)[^.]',
            message: 'remoteLayout/ (the wire formats) imports only shared/, zod, node and the blob codec.',
          },
        ],
      },
    ],
  },
};

// renderer/: features/ may use everything below it; components/ the stores and format/; stores/
// the api and format/; api/ and format/ nothing of the renderer (renderer/README.md).
export const RENDERER_IMPORTS = {
  components: ['format', 'stores'],
  stores: ['api', 'format'],
  api: [],
  format: [],
};
const RENDERER_FOLDERS = ['api', 'components', 'features', 'format', 'stores'];

const rendererFolder = (folder, allowed) => ({
  files: [`renderer/${folder}/**/*.ts`, `renderer/${folder}/**/*.tsx`],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: RENDERER_FOLDERS.filter((other) => other !== folder && !allowed.includes(other)).map((other) => ({
          regex: `^(\\.\\./)+${other}/`,
          message: `renderer/${folder}/ imports only ${allowed.length ? allowed.join(', ') : 'shared/'} of the renderer (renderer/README.md): move what both need down.`,
        })),
      },
    ],
  },
});

const nodePaths = nodeBuiltins.map((name) => ({ name, message: 'This layer runs without Node.' }));

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.bench/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', URL: 'readonly', console: 'readonly' } },
  },
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['electron/**/*.ts', 'shared/**/*.ts', 'renderer/**/*.ts', 'renderer/**/*.tsx', 'scripts/**/*.mjs', 'scripts/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', SPREAD_ARGUMENT],
      // Size budgets (issue 42): code lines only, so a file or function cannot fit by losing its
      // blank lines or comments, and format:check keeps lines from being joined to fit.
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // The index's facade (issue 42): its connection, meta and the writes that announce a snapshot;
    // every query lives on a per-concept object (db/README.md), so the facade stays small.
    files: ['electron/history/db/historyIndex.ts'],
    rules: { 'max-lines': ['error', { max: 150, skipBlankLines: true, skipComments: true }] },
  },
  layer(['shared/**/*.ts'], [{ regex: '(^|/)(electron|renderer|test|e2e)(/|$)', message: 'shared/ imports nothing of ours.' }], [...noElectron, ...nodePaths]),
  layer(
    ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    [{ regex: '(^|/)(electron|test|e2e)(/|$)', message: 'renderer/ imports only shared/.' }],
    [...noElectron, ...nodePaths],
  ),
  layer(
    ['electron/history/**/*.ts'],
    [{ regex: '(^|/)(renderer|main|preload|cli)(/|$)', message: 'The history process is plain Node: no app, no UI.' }],
    noElectron,
    ['electron/history/entry.ts'],
  ),
  layer(['electron/history/entry.ts'], [{ regex: '(^|/)(renderer|main|preload|cli)(/|$)', message: 'The history process is plain Node: no app, no UI.' }]),
  layer(['electron/cli/**/*.ts'], [{ regex: '(^|/)(renderer|main|preload)(/|$)', message: 'The CLI runs the engine only.' }], noElectron),
  layer(
    ['electron/host/**/*.ts'],
    [{ regex: '(^|/)(renderer|main|preload|cli)(/|$)', message: 'The browser host serves the engine: electron/history/ and shared/ only.' }],
    noElectron,
  ),
  layer(
    ['electron/host/page/**/*.ts'],
    [{ regex: '(^|/)(renderer|main|preload|cli|history|electron/host)(/|$)', message: 'The page bridge runs in the browser: shared/ only.' }],
    [...noElectron, ...nodePaths],
  ),
  blobOwner,
  ...Object.entries(HISTORY_IMPORTS).map(([folder, allowed]) => historyFolder(folder, allowed)),
  remoteLayout,
  ...Object.entries(RENDERER_IMPORTS).map(([folder, allowed]) => rendererFolder(folder, allowed)),
  layer(
    ['electron/main/**/*.ts', 'electron/preload/**/*.ts'],
    [{ regex: '(^|/)(renderer|cli|history|host)(/|$)', message: 'main and preload import only shared/ and Electron.' }],
  ),
);
