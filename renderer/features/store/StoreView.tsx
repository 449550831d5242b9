import { useEffect } from 'react';
import type { PullResult, RemoteStatus, StoreStats } from '../../../shared/contract.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { ProgressBar } from '../../components/ProgressBar.js';
import { formatBytes, formatCount } from '../../format/bytes.js';
import { formatRelative } from '../../format/time.js';
import { progressFraction } from '../../../shared/progress.js';
import { useApp } from '../../stores/appStore.js';
import { TransferPanel } from '../transfer/TransferPanel.js';
import { RemoteCredentialsForm } from './RemoteCredentialsForm.js';
import { RetentionPanel } from './RetentionPanel.js';
import { StoreCharts } from './StoreCharts.js';
import { displayPath } from '../../../shared/fileNameBytes.js';

// The project's history store: how much it takes on disk (everything, as du counts it, and what
// takes it), how much it holds (the blobs' bytes and as the files are), what compression
// and content addressing saved, the blobs by form, how many versions the budget holds, the budget and
// the retention policy (RetentionPanel), Verify (every blob re-hashed), Export history… and
// Import history… (TransferPanel), and the largest files.

export function StoreView() {
  const stats = useApp((s) => s.stats);
  const error = useApp((s) => s.statsError);
  const loadStats = useApp((s) => s.loadStats);
  useEffect(() => {
    void loadStats();
  }, [loadStats]);
  if (error) return <ErrorNote error={error} title="The store could not be read" />;
  if (!stats) return <p className="loading">Reading the store…</p>;
  return (
    <div className="store-view">
      <dl className="stat-grid">
        <DiskStat disk={stats.disk} />
        <Stat label="Blobs" value={formatCount(stats.blobs)} />
        <Stat label="Stored" value={formatBytes(stats.density.storedBytes)} hint="the blobs' own bytes" />
        <Stat label="As the files are" value={formatBytes(stats.density.rawBytes)} />
        <Stat
          label="Saved by compression"
          value={formatBytes(stats.density.savedBytes)}
          hint={stats.density.rawBytes > 0 ? `${percentOf(stats.density.savedBytes, stats.density.rawBytes)} of the files' bytes` : undefined}
        />
        <Stat
          label="Saved by storing identical contents once"
          value={formatBytes(stats.dedupeSavedBytes)}
          hint={
            stats.logicalBytes > 0
              ? `${Math.round((stats.dedupeSavedBytes / stats.logicalBytes) * 100)}% of the ${formatBytes(stats.logicalBytes)} all versions hold`
              : undefined
          }
        />
        <BlobFormsStat density={stats.density} />
        <BudgetHoldsStat density={stats.density} />
        <Stat label="Snapshots" value={formatCount(stats.snapshots)} />
        <Stat label="Versions" value={formatCount(stats.versions)} />
        <SearchIndexStat index={stats.searchIndex} />
      </dl>
      <StoreCharts />
      <RetentionPanel />
      <RemotePanel />
      <VerifyPanel />
      <TransferPanel />
      <section className="card" aria-labelledby="largest-title">
        <h2 id="largest-title" className="card-title">
          Largest files
        </h2>
        {stats.largestFiles.length === 0 ? (
          <p className="muted">No files yet.</p>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">File</th>
                <th scope="col" className="num">
                  Size
                </th>
              </tr>
            </thead>
            <tbody>
              {stats.largestFiles.map((f) => (
                <tr key={f.path + f.hash}>
                  <td className="path-cell" title={f.hash}>
                    {displayPath(f.path)}
                  </td>
                  <td className="num">{formatBytes(f.size)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}

/** Everything the history takes on disk, in allocated blocks as du counts it, and what takes it. */
function DiskStat({ disk }: { disk: StoreStats['disk'] }) {
  const parts = [
    `blobs ${formatBytes(disk.blobBytes)} in ${formatCount(disk.blobFiles)} files`,
    `index ${formatBytes(disk.indexBytes)} (search ${formatBytes(disk.searchIndexBytes)} of it)`,
    `backup ${formatBytes(disk.backupBytes)}`,
  ];
  if (disk.tempBytes > 0) parts.push(`temps ${formatBytes(disk.tempBytes)}`);
  parts.push(`other ${formatBytes(disk.otherBytes)}`);
  return <Stat label="On disk" value={formatBytes(disk.totalBytes)} hint={parts.join(' · ')} />;
}

/** The blobs by the form they are kept in, and how many raw ones a compaction will still look at. */
function BlobFormsStat({ density }: { density: StoreStats['density'] }) {
  const unmeasured = density.blobsUnmeasured > 0 ? `, ${formatCount(density.blobsUnmeasured)} not measured yet` : '';
  const pending = density.compactable > 0 ? `; ${formatCount(density.compactable)} to compress (${formatBytes(density.compactableBytes)})` : '';
  return <Stat label="Compressed blobs" value={formatCount(density.blobsCompressed)} hint={`${formatCount(density.blobsRaw)} raw${unmeasured}${pending}`} />;
}

/** About how many versions the budget holds at the store's density, against uncompressed (storeDensity.ts says how). */
function BudgetHoldsStat({ density }: { density: StoreStats['density'] }) {
  if (density.budget === null || density.versionsInBudget === null) return <Stat label="Versions the budget holds" value="No budget" />;
  return (
    <Stat
      label="Versions the budget holds"
      value={`≈ ${formatCount(density.versionsInBudget)}`}
      hint={`${formatCount(density.versionsInBudgetUncompressed ?? 0)} uncompressed, in ${formatBytes(density.budget)}`}
    />
  );
}

function percentOf(part: number, whole: number): string {
  return `${Math.round((part / whole) * 100)}%`;
}

/** The search index: what it costs against the text it covers, or how far its build is. */
function SearchIndexStat({ index }: { index: StoreStats['searchIndex'] }) {
  const ratio = index.textBytes > 0 ? `${(index.indexBytes / index.textBytes).toFixed(2)}× the ${formatBytes(index.textBytes)} of text it covers` : undefined;
  const progress = `${formatCount(index.indexedBlobs)} of ${formatCount(index.totalBlobs)} contents indexed`;
  return <Stat label="Search index" value={formatBytes(index.indexBytes)} hint={index.done ? ratio : progress} />;
}

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd>
        {value}
        {hint && <span className="stat-hint">{hint}</span>}
      </dd>
    </div>
  );
}

function RemotePanel() {
  const remotes = useApp((s) => s.remotes);
  const pulling = useApp((s) => s.pullRemote);
  const pulled = useApp((s) => s.pullResult);
  const pullError = useApp((s) => s.pullError);
  const runPull = useApp((s) => s.runPull);
  return (
    <section className="card" aria-labelledby="remote-title">
      <h2 id="remote-title" className="card-title">
        Remote
      </h2>
      {remotes === null ? null : remotes.length === 0 ? (
        <p className="muted">
          No remote is set. Add an S3-compatible store with <code>hindsight remote add NAME s3://bucket/prefix</code>; the history is then pushed after each
          change.
        </p>
      ) : (
        <ul className="remote-list" aria-label="Remotes">
          {remotes.map((r) => (
            <li key={r.name}>
              <strong>{r.name}</strong> <span className="muted">{r.url}</span>
              <p className={r.state === 'error' ? 'result-bad' : r.state === 'up-to-date' ? 'result-ok' : 'muted'} role="status">
                {remoteState(r)}
              </p>
              <button type="button" className="button" aria-label={`Pull from ${r.name}`} disabled={pulling !== null} onClick={() => void runPull(r.name)}>
                {pulling === r.name ? 'Pulling…' : 'Pull'}
              </button>
              {pulled?.remote === r.name && (
                <p className="muted" role="status">
                  {pullText(pulled)}
                </p>
              )}
              <RemoteCredentialsForm remote={r.name} />
            </li>
          ))}
        </ul>
      )}
      {pullError && <ErrorNote error={pullError} title="The pull failed" />}
    </section>
  );
}

/** What a pull brought in, per machine; the folder itself is never changed by one. */
function pullText(result: PullResult): string {
  if (result.snapshots === 0) return 'Up to date: no new snapshots from other machines.';
  const from = result.machines
    .filter((m) => m.snapshots > 0)
    .map((m) => `${formatCount(m.snapshots)} from ${m.name}`)
    .join(', ');
  return `Pulled ${formatCount(result.snapshots)} ${result.snapshots === 1 ? 'snapshot' : 'snapshots'} (${from}) into the timeline; the folder is unchanged.`;
}

function remoteState(r: RemoteStatus): string {
  const last = r.lastPushAt === null ? '' : ` Last push ${formatRelative(r.lastPushAt)}.`;
  switch (r.state) {
    case 'up-to-date':
      return `Up to date: ${formatCount(r.pushed)} snapshots on the remote.${last}`;
    case 'behind':
      return `${formatCount(r.behind)} ${r.behind === 1 ? 'snapshot' : 'snapshots'} behind; pushed after the next change.${last}`;
    case 'never-pushed':
      return `Never pushed: ${formatCount(r.behind)} ${r.behind === 1 ? 'snapshot' : 'snapshots'} to send.`;
    case 'error':
      return `Last push failed: ${r.lastError ?? 'unknown error'} ${formatCount(r.behind)} ${r.behind === 1 ? 'snapshot' : 'snapshots'} not sent yet.`;
  }
}

function VerifyPanel() {
  const running = useApp((s) => s.verifyOperation !== null);
  const progress = useApp((s) => s.verifyProgress);
  const result = useApp((s) => s.verifyResult);
  const error = useApp((s) => s.verifyError);
  const runVerify = useApp((s) => s.runVerify);
  const problems = result ? [...result.missing.map((p) => ({ ...p, what: 'missing' })), ...result.corrupt.map((p) => ({ ...p, what: 'corrupt' }))] : [];
  return (
    <section className="card" aria-labelledby="verify-title">
      <div className="card-head">
        <div>
          <h2 id="verify-title" className="card-title">
            Verify
          </h2>
          <p className="muted">Re-reads every stored blob and checks it still matches its hash.</p>
        </div>
        <div className="card-actions">
          <button type="button" className="button" disabled={running} onClick={() => void runVerify()}>
            {running ? 'Verifying…' : 'Verify'}
          </button>
          {result && !result.ok && (
            <button type="button" className="button" disabled={running} onClick={() => void runVerify(true)}>
              Repair from folder
            </button>
          )}
        </div>
      </div>
      {running && (
        <div className="verify-progress">
          <ProgressBar label="Verifying the store" value={progress ? progressFraction(progress) * 100 : null} />
          <p className="muted">{progress ? `${formatCount(progress.filesDone)} of ${formatCount(progress.filesTotal)} blobs` : 'Starting…'}</p>
        </div>
      )}
      {error && <ErrorNote error={error} title="Verify did not finish" />}
      {result && result.ok && (
        <p className="result-ok" role="status">
          {result.remoteOnly > 0
            ? `All ${formatCount(result.blobs - result.remoteOnly)} blobs here are intact; ${formatCount(result.remoteOnly)} live on the remote only (fetched when first read).`
            : `All ${formatCount(result.blobs)} blobs are intact.`}
        </p>
      )}
      {result && result.repaired.length > 0 && (
        <div className="result-ok" role="status" aria-label="Repaired blobs">
          <p>{formatCount(result.repaired.length)} damaged blobs were written again from files of the folder that still hold their bytes.</p>
          <ul>
            {result.repaired.slice(0, 200).map((p) => (
              <li key={p.hash}>
                <code>{p.hash.slice(0, 12)}</code> repaired: {versionsByPath(p.versions)}
              </li>
            ))}
          </ul>
        </div>
      )}
      {result && !result.ok && (
        <div className="result-bad" role="alert">
          <p>
            {formatCount(problems.length)} of {formatCount(result.blobs)} blobs are damaged. The versions below cannot be restored
            {result.repaired.length > 0
              ? ': no file of the folder holds their bytes.'
              : ' unless a file of the folder still holds their bytes (Repair from folder).'}
          </p>
          <ul>
            {problems.slice(0, 200).map((p) => (
              <li key={p.hash}>
                <code>{p.hash.slice(0, 12)}</code> {p.what}: {versionsByPath(p.versions)}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

/** "a.txt (2 versions), b.txt": the files whose versions a blob holds, without internal ids. */
function versionsByPath(versions: readonly { path: string }[]): string {
  const counts = new Map<string, number>();
  for (const v of versions) counts.set(v.path, (counts.get(v.path) ?? 0) + 1);
  return [...counts].map(([path, n]) => (n === 1 ? displayPath(path) : `${displayPath(path)} (${formatCount(n)} versions)`)).join(', ');
}
