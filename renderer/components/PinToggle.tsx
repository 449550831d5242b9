import { useEffect } from 'react';
import { useApp } from '../stores/appStore.js';
import { PinMark } from './PinMark.js';

// Pins a snapshot or a version (no prune removes it) or unpins it: a toggle button whose pressed
// state is the pin, named after what it pins.

export function PinToggle({ target, what, shortcut }: { target: { snapshotId: number } | { versionId: number }; what: string; shortcut?: string }) {
  const pins = useApp((s) => s.retention?.pins);
  const load = useApp((s) => s.loadRetention);
  const setPin = useApp((s) => s.setPin);
  useEffect(() => {
    if (!pins) void load();
  }, [pins, load]);
  const pinned = !!pins && ('snapshotId' in target ? pins.snapshots.includes(target.snapshotId) : pins.versions.includes(target.versionId));
  return (
    <button
      type="button"
      className={pinned ? 'button pin-toggle is-pinned' : 'button pin-toggle'}
      aria-label={`Pin ${what}`}
      aria-pressed={pinned}
      aria-keyshortcuts={shortcut}
      data-pin-toggle=""
      disabled={!pins}
      title={`${pinned ? `Pinned: no clean-up removes this ${what}; press to unpin` : `Keep this ${what} through every clean-up`}${shortcut ? ` (${shortcut})` : ''}`}
      onClick={() => void setPin(target, !pinned)}
    >
      {pinned && <PinMark />}
      {pinned ? `Pinned` : `Pin ${what}`}
    </button>
  );
}
