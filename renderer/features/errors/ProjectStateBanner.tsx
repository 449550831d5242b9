import type { ProjectSummary } from '../../../shared/contract.js';

// A project whose folder is not where (or what) it was: said plainly, with what still works.

const MESSAGES: Partial<Record<ProjectSummary['state'], string>> = {
  moved: 'This folder has moved. Its history is intact; open the folder at its new place to keep recording.',
  gone: 'This folder is gone. Its history is kept: open the folder again once it is back (or from its new place) to browse and restore it.',
  replaced: 'A different folder now sits at this path. Its history is kept apart and nothing is mixed into it.',
};

export function ProjectStateBanner({ project }: { project: ProjectSummary }) {
  const message = MESSAGES[project.state];
  if (!message) return null;
  return (
    <div className="banner banner-warning" role="alert">
      <strong>{project.root}</strong> — {message}
    </div>
  );
}
