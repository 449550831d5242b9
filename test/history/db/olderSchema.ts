// Turns a history.db back into what an earlier Hindsight wrote, for the tests of the migrations
// that come after it: the columns of schema 3 (origins) and 4 (scope) removed.

export const DROP_ORIGIN_COLUMNS = ['origin', 'origin_snapshot', 'from_git', 'git_operation', 'git_when', 'scope']
  .map((c) => `ALTER TABLE snapshots DROP COLUMN ${c};`)
  .concat('ALTER TABLE versions DROP COLUMN from_version;')
  .join(' ');
