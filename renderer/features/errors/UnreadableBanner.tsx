import type { UnreadablePath } from '../../../shared/contract.js';
import { useApp } from '../../stores/appStore.js';
import { displayPath } from '../../../shared/fileNameBytes.js';
import { DismissibleNotice } from './DismissibleNotice.js';

// What the last open could not read (no permission, a read error): everything else was recorded,
// and these are tried again at the next open. A short list; the CLI's --json has them all.

const SHOWN = 5;

export function UnreadableBanner({ projectId }: { projectId: string }) {
  const unreadable = useApp((s) => s.unreadable[projectId]);
  const dismiss = useApp((s) => s.dismissUnreadable);
  if (!unreadable || unreadable.length === 0) return null;
  return <UnreadableList unreadable={unreadable} onDismiss={() => dismiss(projectId)} />;
}

export function UnreadableList({ unreadable, onDismiss }: { unreadable: readonly UnreadablePath[]; onDismiss: () => void }) {
  const n = unreadable.length;
  const more = n - SHOWN;
  const message = `${n === 1 ? '1 file or folder' : `${n.toLocaleString('en')} files or folders`} could not be read. Everything else was recorded; ${n === 1 ? 'it is' : 'these are'} tried again at the next open.`;
  return (
    <DismissibleNotice label="Could not be read" className="unreadable" message={message} onDismiss={onDismiss}>
      <ul className="unreadable-list">
        {unreadable.slice(0, SHOWN).map((u) => (
          <li key={u.path}>
            <code>{displayPath(u.path)}</code> — {u.reason}
          </li>
        ))}
        {more > 0 && <li className="muted">and {more.toLocaleString('en')} more</li>}
      </ul>
    </DismissibleNotice>
  );
}
