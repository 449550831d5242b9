import type { Command } from './command.js';

// Every command of `hindsight`, one file each under commands/, loaded only when it runs: a
// one-shot command never compiles the browser host or the watcher. Add a command by adding its
// file and one line here.

export interface CommandEntry {
  name: string;
  load: () => Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'open', load: async () => (await import('./commands/open.js')).openCommand },
  { name: 'files', load: async () => (await import('./commands/files.js')).filesCommand },
  { name: 'log', load: async () => (await import('./commands/log.js')).logCommand },
  { name: 'show', load: async () => (await import('./commands/show.js')).showCommand },
  { name: 'restore', load: async () => (await import('./commands/restore.js')).restoreCommand },
  { name: 'verify', load: async () => (await import('./commands/verify.js')).verifyCommand },
  { name: 'compact', load: async () => (await import('./commands/compact.js')).compactCommand },
  { name: 'stats', load: async () => (await import('./commands/stats.js')).statsCommand },
  { name: 'repair', load: async () => (await import('./commands/repair.js')).repairCommand },
  { name: 'projects', load: async () => (await import('./commands/projects.js')).projectsCommand },
  { name: 'config', load: async () => (await import('./commands/config.js')).configCommand },
  { name: 'search', load: async () => (await import('./commands/search.js')).searchCommand },
  { name: 'index', load: async () => (await import('./commands/index.js')).indexCommand },
  { name: 'ignored', load: async () => (await import('./commands/ignored.js')).ignoredCommand },
  { name: 'deleted', load: async () => (await import('./commands/deleted.js')).deletedCommand },
  { name: 'checkpoint', load: async () => (await import('./commands/checkpoint.js')).checkpointCommand },
  { name: 'pin', load: async () => (await import('./commands/pin.js')).pinCommand },
  { name: 'unpin', load: async () => (await import('./commands/pin.js')).unpinCommand },
  { name: 'prune', load: async () => (await import('./commands/prune.js')).pruneCommand },
  { name: 'watch', load: async () => (await import('./commands/watch.js')).watchCommand },
  { name: 'git-versions', load: async () => (await import('./commands/gitVersions.js')).gitVersionsCommand },
  { name: 'remote', load: async () => (await import('./commands/remote.js')).remoteCommand },
  { name: 'push', load: async () => (await import('./commands/push.js')).pushCommand },
  { name: 'pull', load: async () => (await import('./commands/pull.js')).pullCommand },
  { name: 'clone', load: async () => (await import('./commands/clone.js')).cloneCommand },
  { name: 'export', load: async () => (await import('./commands/export.js')).exportCommand },
  { name: 'import', load: async () => (await import('./commands/import.js')).importCommand },
  { name: 'view', load: async () => (await import('./commands/view.js')).viewCommand },
  { name: 'serve', load: async () => (await import('./commands/serve.js')).serveCommand },
  { name: 'service', load: async () => (await import('./commands/service.js')).serviceCommand },
];
