import { mkdirSync, appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { logStream } from '../fixtures/generatedLog.js';
import { recordStates, type ToolRecord } from './recordStates.js';
import type { StoreTool } from './storeTools.js';

// Scenario `log`: one seeded application log of `logBytes` in a folder, then `appends` times
// `appendBytes` more of it (a line cut at a block's end goes on in the next block, as a buffered
// writer flushes), every store recording the folder after each: what one more version of a large
// file that only grew costs.

export interface LogResult {
  scenario: 'log';
  logBytes: number;
  appends: number;
  appendBytes: number;
  tools: ToolRecord[];
}

export async function logScenario(
  logBytes: number,
  appends: number,
  appendBytes: number,
  scratch: string,
  tools: readonly StoreTool[],
  note: (line: string) => void,
): Promise<LogResult> {
  const work = join(scratch, 'log-work');
  mkdirSync(work, { recursive: true });
  const file = join(work, 'service.log');
  const next = logStream();
  const records = await recordStates(
    tools,
    work,
    {
      count: appends + 1,
      prepare: (i) => {
        if (i === 0) writeFileSync(file, next(logBytes));
        else appendFileSync(file, next(appendBytes));
        return `v${String(i).padStart(3, '0')}`;
      },
    },
    (i, label) => {
      if (i % 10 === 0 || i === appends) note(`log: state ${i + 1}/${appends + 1} ${label}`);
    },
  );
  return { scenario: 'log', logBytes, appends, appendBytes, tools: records };
}
