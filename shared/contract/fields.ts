import * as z from 'zod';
import { projectPathProblem } from '../projectPath.js';

// The fields every request is made of, each bounded, so a hostile payload is refused by shape
// before any code looks at it.

export const MIB = 1024 * 1024;

/** The id openProject answers with: 32 lowercase hex digits. */
export const projectId = z.string().regex(/^[0-9a-f]{32}$/, 'a project id is 32 lowercase hex digits');

/** An absolute or relative folder path on this machine, as a user typed or dropped it. */
export const folderPath = z
  .string()
  .min(1, 'the folder path is empty')
  .max(4096)
  .refine((p) => !p.includes('\0'), 'a folder path cannot contain NUL');

/** A '/'-separated path inside a project (never absolute, never climbing out with '..'). */
export const projectPath = z
  .string()
  .max(4096)
  .superRefine((p, ctx) => {
    const problem = projectPathProblem(p);
    if (problem) ctx.addIssue({ code: 'custom', message: `not a project path (${problem})` });
  });

/** A folder inside a project that a restore is limited to; '' is the whole project. */
export const pathPrefix = z
  .string()
  .max(4096)
  .superRefine((p, ctx) => {
    const trimmed = p.endsWith('/') ? p.slice(0, -1) : p;
    const problem = trimmed === '' ? null : projectPathProblem(trimmed);
    if (problem) ctx.addIssue({ code: 'custom', message: `not a project folder (${problem})` });
  });

export const snapshotId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
export const versionId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** A file's contents as the store names them: their SHA-256 in lowercase hex. */
export const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'a content hash is 64 lowercase hex digits');

const lineIndex = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** One changed block of a line diff (HunkRange): each side's start no later than its end. */
export const hunkRange = z
  .strictObject({ aStart: lineIndex, aEnd: lineIndex, bStart: lineIndex, bEnd: lineIndex })
  .refine((h) => h.aStart <= h.aEnd && h.bStart <= h.bEnd, 'a change ends where it starts or later');

/** Chosen by the caller so it can cancel the work it started (see the cancel call). */
export const operationId = z.string().min(1).max(128);

/** How many bytes of a version travel at most; larger contents come back truncated and marked. */
export const maxBytes = z
  .number()
  .int()
  .min(0)
  .max(64 * MIB)
  .default(2 * MIB);

export const label = z.string().trim().min(1, 'a checkpoint needs a name').max(200);
