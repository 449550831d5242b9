import { useEffect } from 'react';
import { policyInWords } from '../../../shared/retention.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { formatBytes, formatCount } from '../../format/bytes.js';
import { useApp } from '../../stores/appStore.js';
import { PruneDialog } from './PruneDialog.js';
import { PinMark } from '../../components/PinMark.js';
import type { Pins, RetentionStatus } from '../../../shared/contract.js';

// The history against its budget: a bar of the bytes stored, the policy in words, "Clean up now"
// (a preview first, then the prune), and the files whose versions hold the most bytes.

export function RetentionPanel() {
  const retention = useApp((s) => s.retention);
  const error = useApp((s) => s.retentionError);
  const load = useApp((s) => s.loadRetention);
  useEffect(() => {
    void load();
  }, [load]);
  if (error) return <ErrorNote error={error} title="The budget could not be read" />;
  if (!retention) return null;
  return (
    <>
      <BudgetCard retention={retention} />
      <SpaceHolders holders={retention.spaceHolders} />
      <PruneDialog />
    </>
  );
}

/** The bytes stored against the budget, "Clean up now…", what the policy keeps, and the last clean-up's outcome. */
function BudgetCard({ retention }: { retention: RetentionStatus }) {
  const pruning = useApp((s) => s.pruning);
  const preview = useApp((s) => s.previewPrune);
  const { usedBytes, budget, waitingBytes } = retention;
  const over = budget !== null && usedBytes > budget;
  return (
    <section className="card" aria-labelledby="budget-title">
      <div className="card-head">
        <div>
          <h2 id="budget-title" className="card-title">
            History budget
          </h2>
          <p className="muted">
            {budget === null
              ? `${formatBytes(usedBytes)} stored; no budget set.`
              : `${formatBytes(usedBytes)} of ${formatBytes(budget)}${over ? ' (over budget)' : ''}.`}
            {waitingBytes > 0 && ` ${formatBytes(waitingBytes)} is no longer needed and will be deleted within the hour.`}
          </p>
        </div>
        <button type="button" className="button" disabled={pruning} onClick={() => void preview()}>
          {pruning ? 'Working…' : 'Clean up now…'}
        </button>
      </div>
      {budget !== null && <BudgetMeter usedBytes={usedBytes} budget={budget} />}
      <h3 className="card-subtitle">What is kept</h3>
      <ul className="policy-words">
        {policyInWords(retention.policy).map((line) => (
          <li key={line}>{line}</li>
        ))}
        <li className="pins-count">
          <PinMark /> {pinsText(retention.pins)}
        </li>
      </ul>
      <ArchiveRemoteChoice archiveToRemote={retention.policy.archiveToRemote} />
      <PruneOutcome />
    </section>
  );
}

/** The bar of the bytes stored, full at the budget. */
function BudgetMeter({ usedBytes, budget }: { usedBytes: number; budget: number }) {
  const percent = Math.min(100, (usedBytes / budget) * 100);
  const over = usedBytes > budget;
  return (
    <div
      className={over ? 'budget-bar is-over' : 'budget-bar'}
      role="meter"
      aria-label="History budget used"
      aria-valuemin={0}
      aria-valuemax={budget}
      aria-valuenow={Math.min(usedBytes, budget)}
      aria-valuetext={`${formatBytes(usedBytes)} of ${formatBytes(budget)}`}
    >
      <div className="budget-fill" style={{ width: `${percent}%` }} />
    </div>
  );
}

/** Whether the versions the policy thins are deleted or moved to a remote; shown once a remote exists or is chosen. */
function ArchiveRemoteChoice({ archiveToRemote }: { archiveToRemote: RetentionStatus['policy']['archiveToRemote'] }) {
  const remotes = useApp((s) => s.remotes);
  const setArchiveRemote = useApp((s) => s.setArchiveRemote);
  if (remotes === null || !(remotes.length > 0 || archiveToRemote)) return null;
  return (
    <label className="field-inline">
      <span>Versions the policy thins</span>
      <select
        aria-label="Versions the policy thins"
        value={archiveToRemote ?? ''}
        onChange={(event) => void setArchiveRemote(event.target.value === '' ? null : event.target.value)}
      >
        <option value="">are deleted</option>
        {remotes.map((r) => (
          <option key={r.name} value={r.name}>
            move to {r.name} (kept, fetched when read)
          </option>
        ))}
        {archiveToRemote && !remotes.some((r) => r.name === archiveToRemote) && (
          <option value={archiveToRemote}>move to {archiveToRemote} (no such remote)</option>
        )}
      </select>
    </label>
  );
}

/** What the last clean-up did: its error, what it removed, or what it moved to the archive remote. */
function PruneOutcome() {
  const result = useApp((s) => s.pruneResult);
  const pruneError = useApp((s) => s.pruneError);
  return (
    <>
      {pruneError && <ErrorNote error={pruneError} title="Cleaning up did not finish" />}
      {result?.archive?.error && (
        <p className="notice" role="alert">
          {result.archive.error}
        </p>
      )}
      {result && !result.archive && (
        <p className="result-ok" role="status">
          Removed {formatCount(result.snapshots)} snapshots and {formatCount(result.versions)} versions; {formatBytes(result.bytesFreed)} no longer needed.
        </p>
      )}
      {result?.archive && !result.archive.error && (
        <p className="result-ok" role="status">
          Moved {formatCount(result.archive.movedBlobs)} stored copies ({formatBytes(result.archive.movedBytes)}) of thinned versions to {result.archive.remote}
          ; every version is still listed.
        </p>
      )}
    </>
  );
}

/** The files whose versions hold the most bytes. */
function SpaceHolders({ holders }: { holders: RetentionStatus['spaceHolders'] }) {
  return (
    <section className="card" aria-labelledby="holders-title">
      <h2 id="holders-title" className="card-title">
        What holds the space
      </h2>
      {holders.length === 0 ? (
        <p className="muted">No versions yet.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col" className="num">
                Versions
              </th>
              <th scope="col" className="num">
                Stored
              </th>
            </tr>
          </thead>
          <tbody>
            {holders.map((h) => (
              <tr key={h.path}>
                <td className="path-cell">{h.path}</td>
                <td className="num">{formatCount(h.versions)}</td>
                <td className="num">{formatBytes(h.bytes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** "Pinned: 2 versions and 1 snapshot, kept through every clean-up." */
export function pinsText(pins: Pins): string {
  const versions = pins.versions.length === 1 ? '1 version' : `${formatCount(pins.versions.length)} versions`;
  const snapshots = pins.snapshots.length === 1 ? '1 snapshot' : `${formatCount(pins.snapshots.length)} snapshots`;
  if (pins.versions.length + pins.snapshots.length === 0) return 'Nothing is pinned: pin a version or a snapshot to keep it through every clean-up.';
  return `Pinned: ${versions} and ${snapshots}, kept through every clean-up.`;
}
