// Lint, and the layering of docs/ARCHITECTURE (DESIGN.md) checked by machine, not by hope:
// renderer/ imports only shared/; shared/ imports nothing of ours and no Node or Electron;
// electron/history/ imports electron only in its entry file; the CLI never reaches into the app.
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
    rules: { 'no-restricted-syntax': ['error', SPREAD_ARGUMENT] },
  },
  layer(
    ['shared/**/*.ts'],
    [{ regex: '(^|/)(electron|renderer|test|e2e)(/|$)', message: 'shared/ imports nothing of ours.' }],
    [...noElectron, ...nodePaths],
  ),
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
  layer(
    ['electron/history/entry.ts'],
    [{ regex: '(^|/)(renderer|main|preload|cli)(/|$)', message: 'The history process is plain Node: no app, no UI.' }],
  ),
  layer(
    ['electron/cli/**/*.ts'],
    [{ regex: '(^|/)(renderer|main|preload)(/|$)', message: 'The CLI runs the engine only.' }],
    noElectron,
  ),
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
  layer(
    ['electron/main/**/*.ts', 'electron/preload/**/*.ts'],
    [{ regex: '(^|/)(renderer|cli)(/|$)', message: 'main and preload import shared/ and electron only.' }],
  ),
);
