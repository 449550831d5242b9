import { useCallback, useEffect, useState } from 'react';
import type { FolderListing } from '../../../shared/contract.js';
import { asError, browseFolders } from '../../api/hindsight.js';
import { activeAfter } from './folderPickerKeys.js';

// The folder picker's state: the listing shown, its active row, the last error, and whether the
// next listing is on its way. `show` lists a folder and hands its path to `onShow`.

export interface FolderListingState {
  listing: FolderListing | null;
  active: number;
  setActive: (index: number) => void;
  error: string | null;
  loading: boolean;
  show: (path: string | null, cameFrom?: string | null, first?: boolean) => Promise<void>;
}

export function useFolderListing(onShow: (path: string, first: boolean) => void): FolderListingState {
  const [listing, setListing] = useState<FolderListing | null>(null);
  const [active, setActive] = useState(0);
  const [error, setError] = useState<string | null>(null);
  // A key pressed while the next listing is on its way would act on the one it replaces.
  const [loading, setLoading] = useState(true);

  const show = useCallback(
    async (path: string | null, cameFrom: string | null = null, first = false) => {
      setLoading(true);
      try {
        const next = await browseFolders(path);
        setListing(next);
        setActive(activeAfter(next, cameFrom));
        setError(null);
        onShow(next.path, first);
      } catch (failure) {
        setError(asError(failure).message);
      } finally {
        setLoading(false);
      }
    },
    [onShow],
  );

  // The first listing (`show` changes only with `onShow`, which the dialog keeps the same).
  useEffect(() => {
    void show(null, null, true);
  }, [show]);

  return { listing, active, setActive, error, loading, show };
}
