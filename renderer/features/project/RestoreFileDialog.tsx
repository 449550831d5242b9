import { lazy, Suspense, useMemo } from 'react';
import type { DiffInputs } from '../../../shared/contract.js';
import { originText } from '../../../shared/originText.js';
import { Dialog } from '../../components/Dialog.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { formatBytes } from '../../format/bytes.js';
import { baseName } from '../../format/fileKind.js';
import { formatExact } from '../../format/time.js';
import { versionName } from '../../format/versionName.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import { useApp } from '../../stores/appStore.js';
import { sameBytes, textOf } from './fileBytes.js';
import { displayPath } from '../../../shared/fileNameBytes.js';

const DiffView = lazy(() => import('../../components/DiffView.js').then((m) => ({ default: m.DiffView })));

// Confirms a file restore: what will be written, the diff of what it changes (the file on disk
// now, then the version), and that what the file holds now is kept.

export function RestoreFileDialog() {
  const target = useApp((s) => s.restoreTarget);
  const restoring = useApp((s) => s.restoring);
  const cancel = useApp((s) => s.cancelRestore);
  const confirm = useApp((s) => s.confirmRestore);
  if (!target) return null;
  const { path, version } = target;
  const deletion = version.hash === null;
  return (
    <Dialog
      title={`Restore ${displayPath(baseName(path))}?`}
      onClose={cancel}
      wide
      footer={
        <>
          <button type="button" className="button" onClick={cancel}>
            Cancel
          </button>
          <button type="button" className="button button-primary" disabled={restoring} onClick={() => void confirm()}>
            Restore
          </button>
        </>
      }
    >
      <p>
        {deletion ? 'This deletes ' : 'This replaces '}
        <strong>{displayPath(path)}</strong>
        {deletion ? `, as it was deleted in ${versionName(target.number, version.at)} ` : ` with ${versionName(target.number, version.at)}, `}
        recorded <RelativeTime at={version.at} /> ({formatExact(version.at)}){deletion ? '.' : `, ${formatBytes(version.size)}.`}{' '}
        <span className="muted">({originText(version.origin, () => 'an earlier version')})</span>
      </p>
      <section className="restore-diff" aria-label="What the restore changes">
        {target.diffError ? (
          <ErrorNote error={target.diffError} title="The changes could not be shown" />
        ) : target.diff ? (
          <RestoreDiff path={path} diff={target.diff} />
        ) : (
          <p className="loading">Comparing with the file on disk…</p>
        )}
      </section>
      <p className="muted">What the file holds now is recorded first, so you can undo this.</p>
    </Dialog>
  );
}

function RestoreDiff({ path, diff }: { path: string; diff: DiffInputs }) {
  const { before, after } = diff;
  const beforeText = useMemo(() => textOf(before), [before]);
  const afterText = useMemo(() => textOf(after), [after]);
  if (before?.binary || after?.binary) {
    return (
      <p className="restore-diff-note">
        {sameBytes(before, after)
          ? 'The contents are the same.'
          : `Binary contents change: ${before ? formatBytes(before.size) : 'no file'} now, ${after ? formatBytes(after.size) : 'no file'} after.`}
      </p>
    );
  }
  const modeOnly = before && after && sameBytes(before, after) && before.mode !== after.mode;
  if (modeOnly)
    return (
      <p className="restore-diff-note">
        Only the permissions change: {octal(before.mode)} now, {octal(after.mode)} after.
      </p>
    );
  return (
    <Suspense fallback={<p className="loading">Loading…</p>}>
      <DiffView
        path={path}
        before={beforeText}
        after={afterText}
        layout="inline"
        beforeLabel={before ? 'On disk now' : 'On disk now (no file)'}
        afterLabel={after ? 'After the restore' : 'After the restore (no file)'}
      />
    </Suspense>
  );
}

function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}
