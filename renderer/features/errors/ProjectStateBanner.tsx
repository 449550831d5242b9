import { useState } from 'react';
import type { ProjectSummary } from '../../../shared/contract.js';
import { useApp } from '../../stores/appStore.js';

// A project whose folder is not where (or what) it was: said plainly, once, with what the user can
// do about it: find the folder at its new place (its history follows it), look again (a folder
// put back is present again), or take the project off the list (its history stays on disk).

const MESSAGES: Partial<Record<ProjectSummary['state'], string>> = {
  moved: 'Another folder now sits at this path: this project’s folder has moved. Its history is intact.',
  gone: 'This folder is not there any more: it was moved, renamed or deleted. Its history is intact.',
  replaced: 'A different folder now sits at this path. Its history is kept apart and nothing is mixed into it.',
};

export function ProjectStateBanner({ project }: { project: ProjectSummary }) {
  const checkProjects = useApp((s) => s.checkProjects);
  const promptLocate = useApp((s) => s.promptLocate);
  const removeProject = useApp((s) => s.removeProject);
  const [checking, setChecking] = useState(false);
  const message = MESSAGES[project.state];
  if (!message) return null;

  async function checkAgain() {
    setChecking(true);
    try {
      await checkProjects();
    } finally {
      setChecking(false);
    }
  }

  return (
    <div className="banner banner-warning project-state-banner" role="alert">
      <p className="banner-text">
        <strong>{project.root}</strong> — {message}
      </p>
      <div className="banner-actions">
        <button
          type="button"
          className="button button-small"
          onClick={() => void promptLocate(project.projectId)}
          title="Choose the folder at its new place; its history follows it"
        >
          Locate…
        </button>
        <button type="button" className="button button-small" disabled={checking} onClick={() => void checkAgain()} title="Look at the folder again">
          {checking ? 'Checking…' : 'Check again'}
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={() => void removeProject(project.projectId)}
          title="Take this project off the list; its history stays on disk"
        >
          Remove from list
        </button>
      </div>
    </div>
  );
}
