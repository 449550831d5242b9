import { vi } from 'vitest';
import { Sql } from '../../electron/history/db/sql.js';

/**
 * Spies on the reads of Sql that answer an array (`all`, `rows`): each answer goes to `note`
 * and then to the caller unchanged (the real SQLite answers; the spies only look). Restore them
 * with mockRestore when the work is done.
 */
export function spyOnSqlAnswers(note: (answer: unknown) => void) {
  const { all, rows } = Sql.prototype;
  return [
    vi.spyOn(Sql.prototype, 'all').mockImplementation(function (this: Sql, text: string, ...params: unknown[]) {
      const answer = all.call(this, text, ...params);
      note(answer);
      return answer;
    } as never),
    vi.spyOn(Sql.prototype, 'rows').mockImplementation(function (this: Sql, text: string, ...params: unknown[]) {
      const answer = rows.call(this, text, ...params);
      note(answer);
      return answer;
    } as never),
  ];
}
