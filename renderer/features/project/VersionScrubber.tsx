import { useApp } from '../../stores/appStore.js';
import { TimeScrubber } from '../scrubber/TimeScrubber.js';
import { useChangeDensity } from '../scrubber/useChangeDensity.js';

// The time scrubber beside a file's versions: its versions (through renames) per hour or day; a
// jump opens the newest version of that hour or day, reading older pages of the list until its
// row is listed (revealVersion), as a search hit does.

export function VersionScrubber() {
  const path = useApp((s) => s.versionsPath);
  const newest = useApp((s) => s.versions[0]?.versionId ?? null);
  const density = useChangeDensity(path, newest);
  const selectedAt = useApp((s) => s.versions.find((v) => v.versionId === s.selectedVersionId)?.at ?? null);
  const reveal = useApp((s) => s.revealVersion);
  if (!path) return null;
  return (
    <TimeScrubber
      density={density}
      label="Versions over time"
      scope="file"
      selectedAt={selectedAt}
      onJump={(bucket) => {
        if (bucket.versionId !== null) void reveal(path, bucket.versionId);
      }}
    />
  );
}
