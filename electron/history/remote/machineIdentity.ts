import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync, mkdirSync, linkSync, unlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { HindsightError } from '../../../shared/errors.js';
import { isMachineId } from '../remoteLayout/remoteKeys.js';

// Which machine a snapshot came from: a random id made once per data folder, kept in
// <dataDir>/machine.json with the host name for display. Two processes starting at once agree on
// one id: the file is written whole to a temp and hard-linked into place, and the loser reads it.

export interface MachineIdentity {
  id: string;
  name: string;
}

const machineSchema = z.object({ id: z.string().refine(isMachineId, 'not a machine id'), name: z.string().max(256) });

export function machineIdentity(dataDir: string): MachineIdentity {
  const file = join(dataDir, 'machine.json');
  const existing = readIdentity(file);
  if (existing) return existing;
  mkdirSync(dataDir, { recursive: true });
  const made: MachineIdentity = { id: randomUUID(), name: hostname().slice(0, 256) };
  const temp = `${file}.${made.id}.tmp`;
  writeFileSync(temp, `${JSON.stringify(made)}\n`, { mode: 0o644 });
  try {
    linkSync(temp, file);
    return made;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const winner = readIdentity(file);
    if (!winner) throw unreadable(file);
    return winner;
  } finally {
    unlinkSync(temp);
  }
}

function readIdentity(file: string): MachineIdentity | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return machineSchema.parse(JSON.parse(text));
  } catch {
    throw unreadable(file);
  }
}

function unreadable(file: string): HindsightError {
  return new HindsightError('CONFIG_CORRUPT', `${file} is damaged: it should hold this data folder's machine id. Move it away to make a new one.`, {
    path: file,
  });
}
