import type { ProjectSummary } from '../../../shared/contract.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import { useApp } from '../../stores/appStore.js';
import { shortcutLabel } from '../shortcuts.js';
import { ImportHistoryButton } from '../transfer/TransferPanel.js';

// The first thing a user sees: what Hindsight does, "Open folder...", "Import history…" and the
// recent projects.

const STATE_LABELS: Record<ProjectSummary['state'], string> = {
  present: 'Present',
  moved: 'Moved',
  gone: 'Gone',
  replaced: 'Replaced',
  'config-corrupt': 'Unknown',
};

export function StartScreen() {
  const projects = useApp((s) => s.projects);
  const loaded = useApp((s) => s.projectsLoaded);
  const openKnown = useApp((s) => s.openKnown);
  const configBroken = useApp((s) => s.configError !== null);
  return (
    <div className="start">
      <header className="start-hero">
        <h1 className="start-title">Hindsight</h1>
        <p className="start-lead">Every version of every file in a folder, kept on this computer. Restore any of them with a click.</p>
        <p className="start-how">
          Choose <kbd>Open folder...</kbd> ({shortcutLabel('O')}) or drop a folder on this window. Nothing is ever written inside your folder.
        </p>
        <p className="start-how">
          Brought a history from another computer? <ImportHistoryButton />
        </p>
      </header>
      <section className="card recent" aria-labelledby="recent-title">
        <h2 id="recent-title" className="card-title">
          Recent projects
        </h2>
        {loaded && projects.length === 0 && configBroken ? (
          <p className="muted">Recent projects are listed again once the settings file is fixed or removed (see above).</p>
        ) : loaded && projects.length === 0 ? (
          <p className="muted">No projects yet. Open a folder to start its history.</p>
        ) : (
          <ul className="recent-list" aria-label="Recent projects">
            {projects.map((p) => (
              <li key={p.projectId}>
                <button
                  type="button"
                  className="recent-item"
                  onClick={() => openKnown(p)}
                  title={p.state === 'gone' ? 'The folder is gone; its history can still be browsed once opened from its new place' : p.root}
                >
                  <span className={`folder-glyph state-${p.state}`} aria-hidden="true" />
                  <span className="recent-text">
                    <span className="recent-name">{p.name}</span>
                    <span className="recent-path">{p.root}</span>
                  </span>
                  <span className="recent-when">{p.lastOpenedAt ? <RelativeTime at={p.lastOpenedAt} /> : 'never opened'}</span>
                  <span className={`badge state-${p.state}`}>{STATE_LABELS[p.state]}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
