import { askToFlush } from '../history/recorderClient.js';
import type { CommandContext } from './command.js';

// A command that would look at the folder for changes asks the data folder's recorder first
// (history/recorderClient.ts): when it watches the project, it writes every change it heard up to
// the ask, and the command reads history.db as it is. No recorder, one that does not answer
// within the bound, one that does not watch the project or rescans it instead: the command looks
// at the folder itself, as without a recorder.

/** When the recorder wrote everything it heard for the folder's project (ms since 1970), or undefined: the command rescans. */
export async function recorderWrote(ctx: CommandContext, folder: string): Promise<number | undefined> {
  let projectId: string;
  try {
    projectId = ctx.engine().locate(folder);
  } catch {
    return undefined; // not a folder: the open says why
  }
  const answer = await askToFlush(ctx.dataDir, projectId);
  return answer !== null && 'writtenThrough' in answer ? answer.writtenThrough : undefined;
}
