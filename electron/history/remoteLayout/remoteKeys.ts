import { HindsightError } from '../../../shared/errors.js';
import { BLOB_HASH_SOURCE } from '../../../shared/blobHash.js';

// Every object name of the remote layout (docs/REMOTE.md), relative to the remote's prefix, is
// made and checked here. Names that carry a hash are the hash of the object's bytes (or, for a
// blob standing alone, of the blob itself), so writing one twice is harmless and a reader can
// check what it got. Names read from the remote (a head's lists) are untrusted: they are parsed
// back against these shapes before anything is fetched by them.

export const FORMAT_MARKER_KEY = 'hindsight-remote.json';
export const PROJECTS_FOLDER = 'projects';

const HASH = BLOB_HASH_SOURCE;
const PROJECT_ID = /^[0-9a-f]{32}$/;
const MACHINE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isProjectId(value: string): boolean {
  return PROJECT_ID.test(value);
}

export function isMachineId(value: string): boolean {
  return MACHINE_ID.test(value);
}

export function projectFolder(projectId: string): string {
  return `${PROJECTS_FOLDER}/${projectId}`;
}

export function packKey(projectId: string, packHash: string): string {
  return `${projectFolder(projectId)}/packs/${packHash}`;
}

export function blobKey(projectId: string, blobHash: string): string {
  return `${projectFolder(projectId)}/blobs/${blobHash}`;
}

export function indexKey(projectId: string, indexHash: string): string {
  return `${projectFolder(projectId)}/index/${indexHash}.json.gz`;
}

/** Snapshot records sort by the machine's own snapshot ids: `<first>-<last>-<hash>`. */
export function recordKey(projectId: string, machineId: string, first: number, last: number, recordHash: string): string {
  return `${projectFolder(projectId)}/snapshots/${machineId}/${pad(first)}-${pad(last)}-${recordHash}.json.gz`;
}

export function headsFolder(projectId: string): string {
  return `${projectFolder(projectId)}/heads/`;
}

export function headKey(projectId: string, machineId: string): string {
  return `${headsFolder(projectId)}${machineId}.json`;
}

/** The hash a content-addressed key carries, after checking the key has the expected shape. */
export function hashOfKey(projectId: string, kind: 'pack' | 'blob' | 'index' | 'record', key: string): string {
  const folder = projectFolder(projectId);
  const shapes: Record<typeof kind, RegExp> = {
    pack: new RegExp(`^${folder}/packs/(${HASH})$`),
    blob: new RegExp(`^${folder}/blobs/(${HASH})$`),
    index: new RegExp(`^${folder}/index/(${HASH})\\.json\\.gz$`),
    record: new RegExp(`^${folder}/snapshots/[0-9a-f-]{36}/\\d{10}-\\d{10}-(${HASH})\\.json\\.gz$`),
  };
  const match = shapes[kind].exec(key);
  if (!match) throw new HindsightError('REMOTE_CORRUPT', `The remote names an object ${JSON.stringify(key)} that is not a ${kind} of this project.`, { key });
  return match[1]!;
}

/** The machine id of a head's key in a listing of the heads folder, or undefined for anything else. */
export function machineOfHeadKey(projectId: string, key: string): string | undefined {
  const prefix = headsFolder(projectId);
  if (!key.startsWith(prefix) || !key.endsWith('.json')) return undefined;
  const id = key.slice(prefix.length, -'.json'.length);
  return isMachineId(id) ? id : undefined;
}

function pad(n: number): string {
  return String(n).padStart(10, '0');
}
