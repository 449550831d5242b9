import type { Command } from './command.js';
import { checkpointCommand } from './commands/checkpoint.js';
import { configCommand } from './commands/config.js';
import { deletedCommand } from './commands/deleted.js';
import { filesCommand } from './commands/files.js';
import { gitVersionsCommand } from './commands/gitVersions.js';
import { logCommand } from './commands/log.js';
import { openCommand } from './commands/open.js';
import { projectsCommand } from './commands/projects.js';
import { restoreCommand } from './commands/restore.js';
import { serveCommand } from './commands/serve.js';
import { showCommand } from './commands/show.js';
import { verifyCommand } from './commands/verify.js';
import { watchCommand } from './commands/watch.js';

// Every command of `hindsight`, one file each under commands/. Add a command by adding its file
// and one line here.
export const COMMANDS: readonly Command[] = [openCommand, filesCommand, logCommand, showCommand, restoreCommand, verifyCommand, projectsCommand, configCommand, deletedCommand, checkpointCommand, watchCommand, gitVersionsCommand, serveCommand];
