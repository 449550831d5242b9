import type { RestorePreview } from '../../../shared/contract.js';
import { Dialog } from '../../components/Dialog.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { formatCount } from '../../format/bytes.js';
import { formatExact } from '../../format/time.js';
import { useApp } from '../../stores/appStore.js';
import { displayPath } from '../../../shared/fileNameBytes.js';
import { sameName, type NameRules } from '../../../shared/nameFold.js';
import { shownRules } from '../../stores/shownRules.js';

// Restoring the project or one folder to a snapshot: the engine's preview first (what will be
// written, recreated, kept), then the restore. Files added since are kept unless asked. The
// folder is picked from the snapshot's folders (typing one works too), and a snapshot taken on
// another branch than the one checked out now is said so before anything is written.

export function RestoreSnapshotDialog() {
  const draft = useApp((s) => s.snapshotRestore);
  const edit = useApp((s) => s.editSnapshotRestore);
  const cancel = useApp((s) => s.cancelSnapshotRestore);
  const confirm = useApp((s) => s.confirmSnapshotRestore);
  const rules = useApp(shownRules);
  if (!draft) return null;
  const folderMode = draft.scope === 'folder';
  const prefix = draft.pathPrefix;
  const nothing = draft.preview && draft.preview.write.length + draft.preview.recreate.length + (draft.deleteAdded ? draft.preview.added.length : 0) === 0;
  return (
    <Dialog
      wide
      title={folderMode ? 'Restore a folder to this snapshot' : 'Restore the project to this snapshot'}
      onClose={cancel}
      initialFocus={folderMode ? 'input[type="text"]' : 'footer button:last-child'}
      footer={
        <>
          <button type="button" className="button" onClick={cancel}>
            Cancel
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={!draft.preview || draft.running || !!nothing || (folderMode && prefix.trim() === '')}
            onClick={() => void confirm()}
          >
            Restore
          </button>
        </>
      }
    >
      <p>
        Snapshot of <strong>{formatExact(draft.snapshot.at)}</strong>. Everything a restore overwrites is recorded first, so it can be undone.
      </p>
      {folderMode && (
        <label className="field">
          <span>Folder</span>
          <input
            type="text"
            className="input"
            aria-label="Folder"
            value={prefix}
            placeholder="e.g. src/components"
            onChange={(e) => edit({ pathPrefix: e.target.value })}
          />
        </label>
      )}
      {folderMode && <FolderPicker folders={draft.folders} typed={prefix} rules={rules} onPick={(folder) => edit({ pathPrefix: folder })} />}
      <label className="checkbox">
        <input type="checkbox" checked={draft.deleteAdded} onChange={(e) => edit({ deleteAdded: e.target.checked })} />
        Also delete files added since this snapshot (they are recorded first)
      </label>
      {draft.previewError ? (
        <ErrorNote error={draft.previewError} title="No preview" />
      ) : draft.preview ? (
        <Preview preview={draft.preview} deleteAdded={draft.deleteAdded} />
      ) : folderMode && prefix.trim() === '' ? (
        <p className="muted">Pick a folder above, or type one relative to the project.</p>
      ) : (
        <p className="loading">Preparing the preview…</p>
      )}
    </Dialog>
  );
}

const MAX_FOLDERS = 200;

function FolderPicker({ folders, typed, rules, onPick }: { folders: string[] | null; typed: string; rules: NameRules; onPick: (folder: string) => void }) {
  if (folders === null) return <p className="loading">Listing the snapshot’s folders…</p>;
  const want = typed.trim().replace(/\/+$/, '').toLowerCase();
  const matching = want === '' ? folders : folders.filter((f) => f.toLowerCase().includes(want));
  if (matching.length === 0) return <p className="muted">{folders.length === 0 ? 'The snapshot has no folders.' : 'No folder of the snapshot matches.'}</p>;
  const shown = matching.slice(0, MAX_FOLDERS);
  return (
    <ul className="folder-picker" aria-label="Folders in this snapshot">
      {shown.map((folder) => {
        const depth = folder.split('/').length - 1;
        // The folder the restore takes: typed in another spelling where the project's folder folds names.
        const picked = sameName(folder, typed.trim().replace(/\/+$/, ''), rules);
        return (
          <li key={folder}>
            <button
              type="button"
              className={picked ? 'folder-choice is-picked' : 'folder-choice'}
              aria-pressed={picked}
              style={{ paddingLeft: `${8 + depth * 14}px` }}
              onClick={() => onPick(folder)}
            >
              <span className="folder-glyph" aria-hidden="true" />
              {displayPath(folder)}
            </button>
          </li>
        );
      })}
      {matching.length > shown.length && <li className="muted">and {formatCount(matching.length - shown.length)} more: type to narrow</li>}
    </ul>
  );
}

/** What a restore (or the undo of one) will write, recreate, delete or keep: the engine's preview. */
export function Preview({
  preview,
  deleteAdded,
  addedSince = 'added since the snapshot',
}: {
  preview: RestorePreview;
  deleteAdded: boolean;
  addedSince?: string;
}) {
  const otherBranch = preview.snapshotBranch !== null && preview.branchNow !== null && preview.snapshotBranch !== preview.branchNow;
  return (
    <div className="preview" aria-label="Restore preview">
      {otherBranch && (
        <p className="notice notice-warning" role="alert">
          This snapshot was taken on branch <strong>{preview.snapshotBranch}</strong>, and <strong>{preview.branchNow}</strong> is checked out now: the files
          come back as they were on {preview.snapshotBranch}.
        </p>
      )}
      <ul className="preview-summary">
        <li>
          <strong>{formatCount(preview.write.length)}</strong> to write
        </li>
        <li>
          <strong>{formatCount(preview.recreate.length)}</strong> to recreate
        </li>
        <li>
          <strong>{formatCount(preview.added.length)}</strong> {preview.added.length === 1 ? 'file' : 'files'} {addedSince}{' '}
          {deleteAdded ? 'to delete' : 'to keep'}
        </li>
        <li>
          <strong>{formatCount(preview.unchanged)}</strong> unchanged
        </li>
      </ul>
      <PathGroup title="Written" paths={preview.write} />
      <PathGroup title="Recreated" paths={preview.recreate} />
      <PathGroup title={deleteAdded ? 'Deleted' : 'Kept'} paths={preview.added} />
    </div>
  );
}

function PathGroup({ title, paths }: { title: string; paths: string[] }) {
  if (paths.length === 0) return null;
  return (
    <details className="path-group" open={paths.length <= 8}>
      <summary>
        {title} ({formatCount(paths.length)})
      </summary>
      <ul>
        {paths.slice(0, 500).map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
    </details>
  );
}
