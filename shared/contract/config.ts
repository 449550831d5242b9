import * as z from 'zod';
import { retentionPolicySchema } from '../retention.js';
import { projectId } from './fields.js';

// The user-editable part of config.json as it crosses the contract. config.json itself (issue 5)
// keeps unknown fields; this is the shape the UI reads and the patch it sends. Names and bounds
// follow electron/history/config/configSchema.ts.

export const settingsSchema = z.strictObject({
  /** Extra ignore patterns (gitignore syntax) on top of the built-in ones. */
  excludePatterns: z.array(z.string().min(1).max(1000)).max(1000),
  /** Files larger than this are not recorded; null for no limit. */
  maxFileSize: z.number().int().positive().nullable(),
  /** Edits within this quiet window become one snapshot. */
  quietWindowMs: z.number().int().min(0).max(600_000),
  /** How often a project the OS cannot watch (out of file watches) is rescanned instead. */
  fallbackRescanSeconds: z.number().int().min(1).max(86_400),
  /** How many files are copied at once, shared by every project. */
  copyConcurrency: z.number().int().min(1).max(64),
  backgroundClose: z.enum(['auto', 'on', 'off']),
  /** A first copy of more files than this asks for confirmation; null never asks. */
  largeFolderFiles: z.number().int().positive().nullable(),
  /** A first copy of more bytes than this asks for confirmation; null never asks. */
  largeFolderBytes: z.number().int().positive().nullable(),
  /** The most bytes a project's history may keep; null for no limit. */
  historyBudget: z.number().int().positive().nullable(),
  /** Which snapshots a prune keeps. */
  retention: retentionPolicySchema,
  /** Contents larger than this are not indexed nor searched. */
  searchMaxFileSize: z.number().int().positive(),
  /** Raw blobs of a recorded project are compressed in the background where it pays. */
  compactInBackground: z.boolean(),
  /** The app starts, with no window, at login; null until the user was asked (once, after the first project). */
  startAtLogin: z.boolean().nullable(),
  /** The window said once that closing it keeps recording in the background. */
  backgroundNoticeShown: z.boolean(),
});

export type Settings = z.infer<typeof settingsSchema>;

export const projectEditSchema = z.strictObject({
  projectId,
  name: z.string().trim().min(1).max(200).optional(),
  pinned: z.boolean().optional(),
  /** Forgets the project (its history store stays on disk). */
  forget: z.literal(true).optional(),
});

export type ProjectEdit = z.infer<typeof projectEditSchema>;
