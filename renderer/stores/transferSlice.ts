import type { ExportResult, ImportResult } from '../../shared/contract.js';
import { damagedVersionsText } from '../../shared/damagedVersions.js';
import type { HindsightError } from '../../shared/errors.js';
import { formatBytes, plural } from '../format/bytes.js';
import { baseName } from '../format/fileKind.js';
import { asError, call, chooseBundleTarget, downloadHistory, hasNativeDialogs, newOperationId, uploadHistory } from '../api/hindsight.js';
import type { Slice } from './appState.js';

// "Export history…" and "Import history…": a project's history as one bundle file and back
// (docs/BUNDLE.md). The app saves and opens the bundle at paths its native dialogs chose; the
// browser host downloads and uploads it. Either way the work runs on a copy card with progress in
// bytes, time left and Cancel, and ends in one line saying what was done (or why not). An export
// refused because contents it would carry are damaged or missing offers to export without them
// (skipDamaged, to the same place), and then says what it left out.

/** The bundle to import: a path (the app's open dialog, or typed) or a file the browser picked. */
export type BundleChoice = { path: string } | { file: File };

export interface TransferSlice {
  importDialog: boolean;
  setImportDialog(open: boolean): void;
  /**
   * Exports the shown project's history; false when cancelled or failed (a toast says which).
   * skipDamaged leaves out contents found damaged or missing; `to` is a path chosen already.
   */
  exportHistory(options?: { skipDamaged?: boolean; to?: string }): Promise<boolean>;
  /** Imports a bundle, into the folder it was recorded at or into `as`. */
  importHistory(source: BundleChoice, as?: string): Promise<boolean>;
}

export const createTransferSlice: Slice<TransferSlice> = (set, get) => ({
  importDialog: false,
  setImportDialog: (importDialog) => set({ importDialog }),

  exportHistory: async ({ skipDamaged = false, to: chosen } = {}) => {
    const projectId = get().currentProjectId;
    const project = get().projects.find((p) => p.projectId === projectId);
    if (!projectId || !project) {
      // From the app's menu with no project shown.
      get().pushToast({ tone: 'info', message: 'Open a project first: Export history… writes the history of the project shown.' });
      return false;
    }
    const name = project.name || baseName(project.root);
    const native = hasNativeDialogs();
    let to: string | null = chosen ?? null;
    if (native && to === null) {
      try {
        // A renamed project may hold characters a file name cannot.
        to = await chooseBundleTarget(`${name.replace(/[\\/\0]/g, '-')}-history.hsb`);
      } catch (error) {
        get().pushToast({ tone: 'error', message: `Export failed: ${asError(error).message}` });
        return false;
      }
      if (!to) return false;
    }
    const operationId = newOperationId('export');
    get().beginCopy(operationId, to ?? project.root, false, 'export');
    try {
      const skip = skipDamaged ? { skipDamaged } : {};
      const result = to
        ? await call('exportHistory', { projectId, to, operationId, ...skip })
        : await downloadHistory({ projectId, operationId, name, ...skip });
      get().pushToast({ tone: 'info', message: exportedLine(result, name) });
      return true;
    } catch (error) {
      const failure = asError(error);
      get().pushToast({
        tone: 'error',
        message: failure.code === 'CANCELLED' ? 'Export cancelled: no bundle was written.' : `Export failed: ${failure.message}`,
        // Refused for damaged or missing contents: the rest can still go, those left out and named.
        action:
          refusedForDamage(failure) && !skipDamaged
            ? { label: 'Export without the damaged files', run: () => void get().exportHistory({ skipDamaged: true, ...(to ? { to } : {}) }) }
            : undefined,
      });
      return false;
    } finally {
      get().endCopy(operationId);
    }
  },

  importHistory: async (source, as) => {
    const operationId = newOperationId('import');
    set({ importDialog: false });
    get().beginCopy(operationId, 'path' in source ? source.path : source.file.name, false, 'import');
    try {
      const result =
        'path' in source ? await call('importHistory', { from: source.path, as, operationId }) : await uploadHistory(source.file, { operationId, as });
      await get().loadProjects();
      const project = get().projects.find((p) => p.projectId === result.projectId);
      get().pushToast({
        tone: 'info',
        message: importLine(result),
        action: project && result.projectId !== get().currentProjectId ? { label: 'Show', run: () => get().openKnown(project) } : undefined,
      });
      return true;
    } catch (error) {
      const failure = asError(error);
      get().pushToast({
        tone: 'error',
        message: failure.code === 'CANCELLED' ? 'Import cancelled: the history is as it was.' : `Import failed: ${failure.message}`,
      });
      return false;
    } finally {
      get().endCopy(operationId);
    }
  },
});

/** The export's refusal of damaged or missing contents: known before, or found while writing. */
function refusedForDamage(failure: HindsightError): boolean {
  return failure.code === 'BLOB_CORRUPT' || failure.code === 'BLOB_MISSING';
}

function exportedLine(result: ExportResult, name: string): string {
  const what = `${plural(result.snapshots, 'snapshot')}, ${formatBytes(result.size)}`;
  const done = result.to
    ? `History of ${name} exported to ${result.to} (${what}).`
    : `History of ${name} exported (${what}); your browser saves it with your downloads.`;
  if (result.leftOut.length === 0) return done;
  return `${done} Left out, damaged or missing: ${damagedVersionsText(result.leftOut)}; an import keeps those versions without their bytes.`;
}

function importLine(result: ImportResult): string {
  if (result.added === 0) return `Nothing new: the history of ${result.root} already held every snapshot of that bundle.`;
  return `Imported ${plural(result.added, 'snapshot')} into the history of ${result.root} (${formatBytes(result.bytes)} written).`;
}
