import type { RecoveredRestore } from '../../../shared/history.js';
import { displayPath } from '../../../shared/fileNameBytes.js';
import { useApp } from '../../stores/appStore.js';
import { DismissibleNotice } from './DismissibleNotice.js';

// A restore stopped midway (the app killed, the machine off) is finished by the next open, before
// it records anything: completed when it had been recorded, else rolled back so the folder is as
// it was before it. The open result says which (recoveredRestores); this notice tells it on the
// project, with every path left alone because it was changed since. The CLI's open prints the same.

const SHOWN = 5;

export function RecoveredRestoresBanner({ projectId }: { projectId: string }) {
  const recovered = useApp((s) => s.recoveredRestores[projectId]);
  const dismiss = useApp((s) => s.dismissRecoveredRestores);
  if (!recovered || recovered.length === 0) return null;
  return <RecoveredRestoresList recovered={recovered} onDismiss={() => dismiss(projectId)} />;
}

export function RecoveredRestoresList({ recovered, onDismiss }: { recovered: readonly RecoveredRestore[]; onDismiss: () => void }) {
  const many = recovered.length !== 1;
  const message = `${many ? `${recovered.length} restores were` : 'A restore was'} stopped midway; opening the folder finished ${many ? 'them' : 'it'}.`;
  return (
    <DismissibleNotice label="Restores finished at open" className="recovered-restores" message={message} onDismiss={onDismiss}>
      <ul className="unreadable-list">
        {recovered.map((r, i) => (
          <li key={i}>
            {outcomeWords(r)}
            {r.leftAlone.length > 0 && <LeftAlone leftAlone={r.leftAlone} />}
          </li>
        ))}
      </ul>
    </DismissibleNotice>
  );
}

function outcomeWords(r: RecoveredRestore): string {
  if (r.outcome === 'completed') return 'Completed: it had been recorded, and stands as restored.';
  const n = r.putBack.length;
  return `Rolled back: ${n === 1 ? '1 path' : `${n.toLocaleString('en')} paths`} put back as ${n === 1 ? 'it was' : 'they were'} before it.`;
}

function LeftAlone({ leftAlone }: { leftAlone: RecoveredRestore['leftAlone'] }) {
  const more = leftAlone.length - SHOWN;
  return (
    <ul aria-label="Left as they are">
      {leftAlone.slice(0, SHOWN).map((l) => (
        <li key={l.path}>
          <code>{displayPath(l.path)}</code> left as it is ({l.reason})
        </li>
      ))}
      {more > 0 && <li className="muted">and {more.toLocaleString('en')} more</li>}
    </ul>
  );
}
