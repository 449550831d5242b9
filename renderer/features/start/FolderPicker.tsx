import { useEffect, useId, type KeyboardEvent } from 'react';
import { childPath, pickerMove } from './folderPickerKeys.js';
import { useFolderListing } from './useFolderListing.js';

// The browser's stand-in for the native folder dialog: the user's own folders, listed by the host
// (GET /folders, the home folder at the top), entered with a double click or Enter, left with Up,
// Backspace or Alt+Up. The folder shown is the one "Open" opens: `onShow` hands it to the path
// field, which can still be typed in (the first listing, which may arrive after the user typed
// there, is handed over as `first` so the field keeps what was typed).

export function FolderPicker({ onShow }: { onShow: (path: string, first: boolean) => void }) {
  const { listing, active, setActive, error, loading, show } = useFolderListing(onShow);
  const listId = useId();

  useEffect(() => {
    document.getElementById(`${listId}-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [listId, active, listing]);

  function onKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    if (!listing) return;
    const move = pickerMove(event, listing, active);
    if (move === null) return;
    event.preventDefault();
    if (loading) return;
    if (move.kind === 'active') setActive(move.index);
    else void show(move.path, move.path === listing.parent ? listing.path : null);
  }

  const up = listing?.parent ?? null;
  return (
    <div className="folder-browser">
      <div className="folder-browser-bar">
        <button type="button" className="button button-small" disabled={up === null} onClick={() => up !== null && void show(up, listing?.path ?? null)}>
          Up one folder
        </button>
        <span className="folder-browser-path" title={listing?.path}>
          {listing?.path ?? 'Loading…'}
        </span>
      </div>
      <ul
        className="folder-browser-list"
        role="listbox"
        aria-label="Folders"
        aria-busy={loading}
        tabIndex={0}
        aria-activedescendant={listing && listing.folders.length > 0 ? `${listId}-${active}` : undefined}
        onKeyDown={onKeyDown}
      >
        {listing?.folders.map((name, index) => (
          <li
            key={name}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className={index === active ? 'folder-browser-row active' : 'folder-browser-row'}
            onClick={() => setActive(index)}
            onDoubleClick={() => void show(childPath(listing.path, name))}
          >
            {name}
          </li>
        ))}
        {listing && listing.folders.length === 0 && <li className="folder-browser-empty muted">No folders in here</li>}
      </ul>
      {listing?.truncated && (
        <p className="muted small">Only the first {listing.folders.length.toLocaleString()} folders are listed: type the path of another.</p>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
