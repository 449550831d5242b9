import { useApp } from '../stores/appStore.js';
import { openFolderPrompt } from './start/openFolderPrompt.js';

// The source list: home, every known project (with its folder's state), and Open folder.

export function Sidebar() {
  const projects = useApp((s) => s.projects);
  const current = useApp((s) => s.currentProjectId);
  const showProject = useApp((s) => s.showProject);
  const openKnown = useApp((s) => s.openKnown);
  return (
    <nav className="sidebar" aria-label="Projects">
      <button type="button" className={current === null ? 'brand is-current' : 'brand'} onClick={() => showProject(null)} aria-current={current === null ? 'page' : undefined}>
        <span className="brand-mark" aria-hidden="true" />
        Hindsight
      </button>
      <button type="button" className="button button-primary sidebar-open" onClick={() => void openFolderPrompt()} title="Open a folder (Ctrl+O)">
        Open folder...
      </button>
      <h2 className="sidebar-heading">Projects</h2>
      <ul className="sidebar-list">
        {projects.map((p) => (
          <li key={p.projectId}>
            <button
              type="button"
              className={p.projectId === current ? 'sidebar-item is-current' : 'sidebar-item'}
              aria-current={p.projectId === current ? 'page' : undefined}
              title={p.root}
              onClick={() => openKnown(p)}
            >
              <span className={`state-dot state-${p.state}`} aria-hidden="true" />
              <span className="sidebar-name">{p.name}</span>
              {p.state !== 'present' && <span className="sidebar-state">{p.state}</span>}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
