import type { PruneDecision } from '../../../shared/contract.js';
import { Dialog } from '../../components/Dialog.js';
import { formatBytes, formatCount } from '../../format/bytes.js';
import { formatExact } from '../../format/time.js';
import { useApp } from '../../stores/appStore.js';
import { snapshotTitle } from '../timeline/TimelineView.js';

// The preview of a clean-up: what goes, what stays and why, before anything is removed.

const WHY: Record<PruneDecision['why'], string> = {
  newest: 'Newest, or the last copy of a deleted file',
  pinned: 'Pinned',
  otherMachines: "The history holds another machine's snapshots",
  uncommitted: 'Work git does not have',
  policy: 'Kept by the policy',
  thinned: 'Thinned by the policy',
  budget: 'Over the budget',
};

export function PruneDialog() {
  const preview = useApp((s) => s.prunePreview);
  const pruning = useApp((s) => s.pruning);
  const cancel = useApp((s) => s.cancelPrune);
  const confirm = useApp((s) => s.confirmPrune);
  if (!preview) return null;
  const decisions = preview.decisions ?? [];
  const removed = decisions.filter((d) => !d.kept);
  const kept = preview.keptBecause;
  const shown = [...decisions].reverse().slice(0, 300);
  const archive = preview.archive;
  const gone = archive ? 'Move' : 'Remove';
  return (
    <Dialog
      title="Clean up the history"
      onClose={cancel}
      wide
      footer={
        <>
          <button type="button" className="button" onClick={cancel}>
            Cancel
          </button>
          <button type="button" className="button button-primary" disabled={pruning || removed.length === 0} onClick={() => void confirm()}>
            {removed.length === 0
              ? 'Nothing to remove'
              : archive
                ? `Move ${formatCount(removed.length)} snapshots to ${archive.remote}`
                : `Remove ${formatCount(removed.length)} snapshots`}
          </button>
        </>
      }
    >
      {archive ? (
        <p>
          {formatCount(removed.length)} thinned snapshots stay listed; {formatCount(archive.blobs)} stored copies ({formatBytes(archive.bytes)}) only they hold
          move to {archive.remote} (pushed first) and are fetched from there when read.
        </p>
      ) : (
        <p>
          {formatCount(removed.length)} snapshots and {formatCount(preview.versions)} versions go; {formatBytes(preview.bytesFreed)} is no longer needed. Every
          snapshot that stays still restores exactly.
        </p>
      )}
      <p className="muted">
        Stays: {formatCount(kept.newest)} newest, {formatCount(kept.pinned)} pinned, {formatCount(kept.uncommitted)} with work git does not have,{' '}
        {formatCount(kept.policy)} by the policy.
        {kept.otherMachines > 0 &&
          ` ${formatCount(kept.otherMachines)} more because this history holds snapshots pulled from another machine: it is not thinned.`}
        {preview.budget !== null && ` After it: ${formatBytes(preview.keptBytes)} of ${formatBytes(preview.budget)}.`}
      </p>
      {!preview.budgetMet && (
        <p className="notice" role="alert">
          The budget cannot be met: the newest, pinned and uncommitted versions alone take more. They are kept; unpin something or raise the budget.
        </p>
      )}
      <ul className="prune-list" aria-label="Snapshots kept and removed">
        {shown.map((d) => (
          <li key={d.snapshotId} className={d.kept ? 'prune-keep' : 'prune-remove'}>
            <span className="prune-decision">{d.kept ? 'Keep' : gone}</span>
            <span className="prune-title">{snapshotTitle(d)}</span>
            <time dateTime={new Date(d.at).toISOString()}>{formatExact(d.at)}</time>
            <span className="prune-why">{WHY[d.why]}</span>
          </li>
        ))}
        {decisions.length > shown.length && <li className="muted">and {formatCount(decisions.length - shown.length)} older snapshots</li>}
      </ul>
    </Dialog>
  );
}
