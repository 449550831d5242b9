import { useEffect } from 'react';
import { useApp } from '../stores/appStore.js';

// Pins a snapshot or a version (no prune removes it) or unpins it: a toggle button whose pressed
// state is the pin, named after what it pins.

export function PinToggle({ target, what }: { target: { snapshotId: number } | { versionId: number }; what: string }) {
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
      disabled={!pins}
      title={pinned ? `Pinned: no clean-up removes this ${what}` : `Keep this ${what} through every clean-up`}
      onClick={() => void setPin(target, !pinned)}
    >
      {pinned ? `Pinned` : `Pin ${what}`}
    </button>
  );
}
