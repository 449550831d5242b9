import { useApp } from '../../stores/appStore.js';

// The Store tab's way to take a history elsewhere: "Export history…" writes the project's history
// as one bundle file (a download in a browser), "Import history…" reads one in.

export function TransferPanel() {
  const exportHistory = useApp((s) => s.exportHistory);
  return (
    <section className="card" aria-labelledby="transfer-title">
      <div className="card-head">
        <div>
          <h2 id="transfer-title" className="card-title">
            Move the history
          </h2>
          <p className="muted">One file with every snapshot and content, checked as it is read. Import it on another computer, or for a folder that moved.</p>
        </div>
        <div className="card-actions">
          <button type="button" className="button" onClick={() => void exportHistory()}>
            Export history…
          </button>
          <ImportHistoryButton />
        </div>
      </div>
    </section>
  );
}

export function ImportHistoryButton() {
  const open = useApp((s) => s.setImportDialog);
  return (
    <button type="button" className="button" onClick={() => open(true)}>
      Import history…
    </button>
  );
}
