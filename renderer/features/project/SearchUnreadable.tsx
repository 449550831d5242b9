import type { SearchUnreadable as Unreadable } from '../../../shared/contract.js';
import { displayPath } from '../../../shared/fileNameBytes.js';
import { formatCount } from '../../format/bytes.js';
import { formatExact } from '../../format/time.js';

// What a search could not read: the versions whose stored contents are missing or damaged were
// skipped and may hold the text, so the answer says how many and names their files (each with
// when those versions were recorded) instead of letting "no version holds it" stand alone.

const versionsWord = (n: number) => (n === 1 ? '1 version' : `${formatCount(n)} versions`);

export function SearchUnreadable({ unreadable }: { unreadable: Unreadable }) {
  if (unreadable.versions === 0) return null;
  const named = unreadable.files.reduce((n, file) => n + file.versions.length, 0);
  return (
    <div className="notice notice-warning search-unreadable" role="note" aria-label="Versions the search could not read">
      <p>
        {versionsWord(unreadable.versions)} could not be read (stored contents missing or damaged) and {unreadable.versions === 1 ? 'was' : 'were'} skipped:{' '}
        {unreadable.versions === 1 ? 'it' : 'they'} may hold the text.
      </p>
      <ul>
        {unreadable.files.map((file) => (
          <li key={file.path}>
            <span className="search-file-path">{displayPath(file.path)}</span>: {versionsWord(file.versions.length)} (
            {file.versions.map((v) => formatExact(v.at)).join(', ')})
          </li>
        ))}
        {named < unreadable.versions && <li>and {versionsWord(unreadable.versions - named)} of other files</li>}
      </ul>
    </div>
  );
}
