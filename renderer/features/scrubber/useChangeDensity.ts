import { useEffect, useState } from 'react';
import type { ChangeDensity } from '../../../shared/contract.js';
import { call } from '../../api/hindsight.js';
import { useApp } from '../../stores/appStore.js';

// The scrubber's buckets, asked of the engine (one aggregate query, never the rows): for the whole
// history or one file, at this machine's UTC offset so its days start at local midnight, and asked
// again when `changed` does (a snapshot recorded, the file's newest version).

export function utcOffsetMinutes(at = Date.now()): number {
  return -new Date(at).getTimezoneOffset();
}

/** `path`: one file's versions; undefined: every snapshot; null: nothing to show (no file selected). */
export function useChangeDensity(path: string | null | undefined, changed: unknown): ChangeDensity | null {
  const projectId = useApp((s) => s.currentProjectId);
  const [density, setDensity] = useState<ChangeDensity | null>(null);
  useEffect(() => {
    if (!projectId || path === null) {
      setDensity(null);
      return;
    }
    let current = true;
    call('changeDensity', { projectId, ...(path === undefined ? {} : { path }), utcOffsetMinutes: utcOffsetMinutes() }).then(
      (answer) => {
        if (current) setDensity(answer);
      },
      () => {
        // The strip is a picture of the list beside it; the list says what failed.
        if (current) setDensity(null);
      },
    );
    return () => {
      current = false;
    };
  }, [projectId, path, changed]);
  return density;
}
