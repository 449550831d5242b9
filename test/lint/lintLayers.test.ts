import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

// Imports only go down, and lint says so: each folder of electron/history/ and renderer/ imports
// only what its README's "Imports:" line names (eslint.config.js, HISTORY_IMPORTS and
// RENDERER_IMPORTS), main and preload only shared/ and Electron. Each case lints a one-line
// import as if it were a file of the folder, through the project's own lint configuration.

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd: REPO });

async function importProblems(specifier: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { a } from '${specifier}';\nexport const b = a;\n`, { filePath });
  return result!.messages.filter((m) => m.ruleId?.endsWith('no-restricted-imports')).map((m) => m.message);
}

const WRONG_WAY = [
  ['electron/history/db/anything.ts', '../remote/remoteHeads.js', 'db/ reaching up into remote/'],
  ['electron/history/store/anything.ts', '../remote/push/packWorkers.js', "store/ reaching up into the push's workers"],
  ['electron/history/config/anything.ts', '../store/copyPool.js', "config/ reaching into the copy pool's threads"],
  ['electron/history/restore/anything.ts', '../versions/recordPaths.js', 'restore/ reaching up into versions/'],
  ['electron/history/remoteLayout/anything.ts', '../db/sql.js', 'the wire formats reaching out of their leaf'],
  ['electron/history/project/anything.ts', '../registry/openProject.js', 'the project core reaching up into the registry'],
  ['electron/history/watch/anything.ts', '../recorder/recordAll.js', 'the watchers reaching up into the recorder'],
  ['electron/history/versions/anything.ts', '../engineOptions.js', 'a folder below the engine reaching its options'],
  ['electron/history/retention/anything.ts', '../historyEngine.js', 'a folder below the engine reaching it'],
  ['renderer/stores/anything.ts', '../features/copy/copyText.js', 'a store reaching up into a screen'],
  ['renderer/components/anything.tsx', '../features/project/levelRows.js', 'a component reaching up into a screen'],
  ['electron/main/anything.ts', '../history/trace.js', 'main reaching into the history process'],
  ['electron/preload/anything.ts', '../host/server.js', 'preload reaching into the browser host'],
] as const;

const DOWNWARD = [
  ['electron/history/db/anything.ts', '../remoteLayout/headFormat.js'],
  ['electron/history/config/anything.ts', '../store/copyConcurrency.js'],
  ['electron/history/versions/anything.ts', '../restore/restoreFile.js'],
  ['electron/history/store/anything.ts', '../trace.js'],
  ['electron/history/remoteLayout/anything.ts', './jsonObject.js'],
  ['electron/history/remoteLayout/anything.ts', '../codec/blobCodec.js'],
  ['electron/history/remote/fetch/anything.ts', '../../remoteLayout/recordFormat.js'],
  ['electron/history/dispatcher/anything.ts', '../recorder/recordingSwitch.js'],
  ['renderer/features/copy/anything.tsx', '../../stores/appState.js'],
  ['renderer/stores/anything.ts', '../format/copyCompletion.js'],
  ['electron/main/anything.ts', '../../shared/errors.js'],
] as const;

describe('the import layers lint', () => {
  for (const [filePath, specifier, what] of WRONG_WAY) {
    it(`refuses ${what}`, async () => {
      expect(await importProblems(specifier, filePath)).toHaveLength(1);
    });
  }

  it('lets each folder import what its README names', async () => {
    for (const [filePath, specifier] of DOWNWARD) expect(await importProblems(specifier, filePath), `${filePath}: ${specifier}`).toEqual([]);
  });

  it('keeps the process layers: the history process never imports electron, outside its entry file', async () => {
    expect(await importProblems('electron', 'electron/history/db/anything.ts')).toHaveLength(1);
    expect(await importProblems('electron', 'electron/history/entry.ts')).toEqual([]);
  });
});
