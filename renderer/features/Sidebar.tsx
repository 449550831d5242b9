import { useMemo } from 'react';
import { useApp } from '../stores/appStore.js';
import { shortcutLabel } from './shortcuts.js';
import { projectBadges } from './projectBadges.js';
import { openFolderPrompt } from './start/openFolderPrompt.js';

// The source list: home, every known project (with its folder's state), and Open folder. Folded,
// it is a narrow rail with the same controls as icons (each named for screen readers), so a
// narrow window keeps its room for the files without losing the way to another project.

interface SidebarProps {
  folded: boolean;
  onToggle: () => void;
}

export function Sidebar({ folded, onToggle }: SidebarProps) {
  const projects = useApp((s) => s.projects);
  const badges = useMemo(() => projectBadges(projects.map((p) => p.name)), [projects]);
  const current = useApp((s) => s.currentProjectId);
  const showProject = useApp((s) => s.showProject);
  const openKnown = useApp((s) => s.openKnown);
  const toggle = (
    <button
      type="button"
      className="icon-button sidebar-toggle"
      aria-label={folded ? 'Show the project list' : 'Hide the project list'}
      aria-expanded={!folded}
      aria-controls="project-list"
      title={`${folded ? 'Show' : 'Hide'} the project list (${shortcutLabel('B')})`}
      onClick={onToggle}
    >
      <span className={folded ? 'chevron chevron-right' : 'chevron chevron-left'} aria-hidden="true" />
    </button>
  );
  return (
    <nav className={folded ? 'sidebar is-folded' : 'sidebar'} aria-label="Projects">
      <div className="sidebar-top">
        <button
          type="button"
          className={current === null ? 'brand is-current' : 'brand'}
          onClick={() => showProject(null)}
          aria-current={current === null ? 'page' : undefined}
          aria-label={folded ? 'Hindsight' : undefined}
          title={folded ? 'Hindsight: start' : undefined}
        >
          <span className="brand-mark" aria-hidden="true" />
          {!folded && 'Hindsight'}
        </button>
        {toggle}
      </div>
      <button
        type="button"
        className={folded ? 'button button-primary sidebar-open is-icon' : 'button button-primary sidebar-open'}
        onClick={() => void openFolderPrompt()}
        aria-label={folded ? 'Open folder...' : undefined}
        title={`Open a folder (${shortcutLabel('O')})`}
      >
        {folded ? <span className="plus" aria-hidden="true" /> : 'Open folder...'}
      </button>
      {!folded && <h2 className="sidebar-heading">Projects</h2>}
      <ul className="sidebar-list" id="project-list">
        {projects.map((p, i) => (
          <li key={p.projectId}>
            <button
              type="button"
              className={p.projectId === current ? 'sidebar-item is-current' : 'sidebar-item'}
              aria-current={p.projectId === current ? 'page' : undefined}
              aria-label={folded ? `${p.name}${p.state !== 'present' ? ` (${p.state})` : ''}` : undefined}
              title={folded ? `${p.name}\n${p.root}` : p.root}
              onClick={() => openKnown(p)}
            >
              {folded ? (
                <span className={`project-initial state-${p.state}`} aria-hidden="true">
                  {badges[i]}
                </span>
              ) : (
                <>
                  <span className={`state-dot state-${p.state}`} aria-hidden="true" />
                  <span className="sidebar-name">{p.name}</span>
                  {p.state !== 'present' && <span className="sidebar-state">{p.state}</span>}
                </>
              )}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
