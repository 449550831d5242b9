import * as spellingJoin from './spellingJoin.js';
import type { Sql } from './sql.js';

export type { JoinedSpellings, SpellingJoin, TargetSpelling } from './spellingJoin.js';

// Paths recorded under two spellings of one name, joined (HistoryIndex.spellings, spellingJoin.ts).

export class SpellingIndex {
  constructor(private readonly sql: Sql) {}

  /** Whether the history was joined already (the meta key `mark` is set). */
  marked(mark: string): boolean {
    return this.sql.get('SELECT 1 AS one FROM meta WHERE key = ?', mark) !== undefined;
  }

  /** Every file path the versions name, and every folder path whose mode was recorded. */
  recorded(): { files: string[]; folders: string[] } {
    return { files: spellingJoin.recordedPaths(this.sql), folders: spellingJoin.recordedFolders(this.sql) };
  }

  join(join: spellingJoin.SpellingJoin): spellingJoin.JoinedSpellings {
    return spellingJoin.joinSpellings(this.sql, join);
  }
}
