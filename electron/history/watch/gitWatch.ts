import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { count } from '../trace.js';

// What git does to a watched project, heard as it happens: its git folder's HEAD and index, and
// HEAD's reflog (logs/HEAD, one line appended per move: a checkout, a commit, a reset, each step
// of a rebase). git writes the working tree's files first and moves HEAD last, so by the time a
// move is heard every file it wrote has been heard too: the change group is closed there, and a
// group never holds two values of HEAD. An index written anew may track a file a .gitignore
// matches (`git add -f`): the watcher's tracked set is refreshed. A git folder the OS will not
// watch costs nothing but this: moves are still read from the reflog when a group is written.

export interface GitEvents {
  /** HEAD moved (or may have): the open group ends here, and a move that changed no file is still looked at. */
  headMoved(): void;
  /** git wrote its index: the files it tracks may have changed. */
  indexChanged(): void;
}

export class GitWatch {
  private readonly watchers = new Map<string, FSWatcher>();
  private closed = false;

  constructor(
    private readonly gitDir: string,
    private readonly events: GitEvents,
  ) {
    this.watchFolder('', (name) => this.gitFolderEvent(name));
    this.watchLogs();
    // A stash on a detached HEAD writes no line in HEAD's reflog: refs/stash tells it.
    this.watchFolder('refs', (name) => {
      if (name === 'stash') this.events.headMoved();
    });
  }

  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private gitFolderEvent(name: string): void {
    if (name === 'HEAD') this.events.headMoved();
    else if (name === 'index') this.events.indexChanged();
    // A repository's first move makes its logs folder.
    else if (name === 'logs') this.watchLogs();
  }

  private watchLogs(): void {
    if (this.watchers.has('logs')) return;
    this.watchFolder('logs', (name) => {
      if (name === 'HEAD') this.events.headMoved();
    });
  }

  private watchFolder(sub: string, onName: (name: string) => void): void {
    if (this.closed) return;
    try {
      const watcher = watch(join(this.gitDir, sub), { persistent: false }, (_event, name) => {
        count('watch.gitEvents');
        if (typeof name === 'string') onName(name);
      });
      watcher.on('error', () => {
        watcher.close();
        this.watchers.delete(sub);
      });
      this.watchers.set(sub, watcher);
    } catch {
      // Missing (no reflog yet) or refused: what the reflog says is still read when a group is written.
    }
  }
}
