import { useApp } from '../../stores/appStore.js';
import { TimeScrubber } from '../scrubber/TimeScrubber.js';
import { useChangeDensity } from '../scrubber/useChangeDensity.js';

// The Timeline's time scrubber: a jump selects the newest snapshot of that hour or day (a
// checkpoint git's operation made is shown as the row it equals) and scrolls its row into view.

export function TimelineScrubber() {
  const count = useApp((s) => s.snapshots.length);
  const density = useChangeDensity(undefined, count);
  const selectedAt = useApp((s) => s.snapshots.find((x) => x.snapshotId === s.selectedSnapshotId)?.at ?? null);
  const select = useApp((s) => s.selectSnapshot);
  return (
    <TimeScrubber
      density={density}
      label="Changes over time"
      scope="history"
      selectedAt={selectedAt}
      onJump={(bucket) => {
        const snapshot = useApp.getState().snapshots.find((s) => s.snapshotId === bucket.snapshotId);
        const shown = snapshot?.foldedInto ?? bucket.snapshotId;
        void select(shown);
        document.querySelector(`.snapshot-list [data-snapshot="${shown}"]`)?.scrollIntoView({ block: 'center' });
      }}
    />
  );
}
