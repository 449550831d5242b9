import { useEffect } from 'react';
import type { StoreStats } from '../../../shared/contract.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { ProgressBar } from '../../components/ProgressBar.js';
import { formatBytes, formatCount } from '../../format/bytes.js';
import { progressFraction } from '../../../shared/progress.js';
import { useApp } from '../../stores/appStore.js';
import { displayPath } from '../../../shared/fileNameBytes.js';

// The project's history store: how much it holds, what content addressing saved, the largest
// files, and Verify (every blob re-hashed) with its progress and result.

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
        <Stat label="Blobs" value={formatCount(stats.blobs)} />
        <Stat label="Stored" value={formatBytes(stats.blobBytes)} />
        <Stat label="Saved by dedupe" value={formatBytes(stats.dedupeSavedBytes)} hint={stats.logicalBytes > 0 ? `${Math.round((stats.dedupeSavedBytes / stats.logicalBytes) * 100)}% of ${formatBytes(stats.logicalBytes)}` : undefined} />
        <Stat label="Snapshots" value={formatCount(stats.snapshots)} />
        <Stat label="Versions" value={formatCount(stats.versions)} />
        <SearchIndexStat index={stats.searchIndex} />
      </dl>
      <VerifyPanel />
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
        <button type="button" className="button" disabled={running} onClick={() => void runVerify()}>
          {running ? 'Verifying…' : 'Verify'}
        </button>
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
          All {formatCount(result.blobs)} blobs are intact.
        </p>
      )}
      {result && !result.ok && (
        <div className="result-bad" role="alert">
          <p>
            {formatCount(problems.length)} of {formatCount(result.blobs)} blobs are damaged. The versions below cannot be restored.
          </p>
          <ul>
            {problems.slice(0, 200).map((p) => (
              <li key={p.hash}>
                <code>{p.hash.slice(0, 12)}</code> {p.what}: {p.versions.map((v) => displayPath(v.path)).join(', ')}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
