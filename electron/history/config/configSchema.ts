import * as z from 'zod';
import { DEFAULT_HISTORY_BUDGET, DEFAULT_RETENTION, REMOTE_NAME, REMOTE_NAME_RULE, retentionPolicySchema } from '../../../shared/retention.js';
import { COPY_CONCURRENCY_MAX, DEFAULT_COPY_CONCURRENCY } from '../store/copyConcurrency.js';
import { parseEndpoint, parseRemoteUrl } from './remoteUrl.js';

export { REMOTE_NAME };

// The shape of <dataDir>/config.json, version 1. Every part has defaults, so a missing file or a
// missing field reads as a complete config. Unknown fields are kept (loose objects): a config
// written by a newer Hindsight, or edited by hand, loses nothing when this version saves it.

export const CONFIG_VERSION = 1;

export const PROJECT_STATES = ['present', 'moved', 'gone'] as const;
export type ProjectState = (typeof PROJECT_STATES)[number];

const identitySchema = z.object({ dev: z.string(), ino: z.string(), birthtimeNs: z.string() }).loose();

export const projectSchema = z
  .object({
    id: z.string().regex(/^[0-9a-f]{32}$/, 'a project id is 32 lowercase hex digits'),
    root: z.string().min(1),
    name: z.string(),
    /** Milliseconds since the epoch. */
    addedAt: z.number().int().nonnegative(),
    lastOpenedAt: z.number().int().nonnegative(),
    pinned: z.boolean().default(false),
    /** What the last look at the folder found: still there, another folder at its path, or nothing. */
    lastSeen: z.enum(PROJECT_STATES).default('present'),
    /** The folder's identity when it was registered, to tell a moved or replaced folder apart. */
    identity: identitySchema.optional(),
  })
  .loose();

export const settingsShape = {
  /** Extra exclude patterns (gitignore syntax) for every project, on top of its .gitignore files. */
  excludePatterns: z.array(z.string()).default([]),
  /** Files larger than this many bytes are not copied; null: no limit. */
  maxFileSize: z.number().int().positive().nullable().default(null),
  /** Edits within this many milliseconds are grouped into one snapshot. */
  quietWindowMs: z.number().int().min(0).max(600_000).default(2000),
  /** A project the OS cannot watch (out of inotify watches) is rescanned this often instead. */
  fallbackRescanSeconds: z.number().int().min(1).max(86_400).default(60),
  /** Files copying at once across every project of the process. */
  copyConcurrency: z.number().int().min(1).max(COPY_CONCURRENCY_MAX).default(DEFAULT_COPY_CONCURRENCY),
  /** Closing the files a bulk restore or an import writes on background threads: auto, on or off. */
  backgroundClose: z.enum(['auto', 'on', 'off']).default('auto'),
  /** A first copy of more files than this asks for confirmation first; null: never. */
  largeFolderFiles: z.number().int().positive().nullable().default(200_000),
  /** A first copy of more bytes than this asks for confirmation first; null: never. */
  largeFolderBytes: z
    .number()
    .int()
    .positive()
    .nullable()
    .default(20 * 1024 ** 3),
  /** Bytes of blobs a project's history keeps; over it, prunes thin from the oldest; null: no budget. */
  historyBudget: z.number().int().positive().nullable().default(DEFAULT_HISTORY_BUDGET),
  /** Which snapshots a prune keeps (shared/retention.ts); every field has its default. */
  retention: z
    .object({
      keepAllHours: retentionPolicySchema.shape.keepAllHours.default(DEFAULT_RETENTION.keepAllHours),
      hourly: retentionPolicySchema.shape.hourly.default(DEFAULT_RETENTION.hourly),
      daily: retentionPolicySchema.shape.daily.default(DEFAULT_RETENTION.daily),
      weekly: retentionPolicySchema.shape.weekly.default(DEFAULT_RETENTION.weekly),
      uncommittedDays: retentionPolicySchema.shape.uncommittedDays.default(DEFAULT_RETENTION.uncommittedDays),
      graceMinutes: retentionPolicySchema.shape.graceMinutes.default(DEFAULT_RETENTION.graceMinutes),
      archiveToRemote: retentionPolicySchema.shape.archiveToRemote.default(DEFAULT_RETENTION.archiveToRemote),
    })
    .strict()
    .prefault({}),
  /** Contents larger than this many bytes are left out of the search index (and of searches). */
  searchMaxFileSize: z
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  /**
   * A project opened for recording has its raw blobs compressed where it pays, in the background
   * at the lowest priority (compact/backgroundCompaction.ts): on by default, as it only ever
   * yields to recording and saves space the budget then keeps history in.
   */
  compactInBackground: z.boolean().default(true),
  /** The app starts (with no window) when the user logs in; null: not asked yet (asked once, after the first project). */
  startAtLogin: z.boolean().nullable().default(null),
  /** The window has said once that closing it keeps recording in the background. */
  backgroundNoticeShown: z.boolean().default(false),
};

export type SettingKey = keyof typeof settingsShape;
export const SETTING_KEYS = Object.keys(settingsShape) as SettingKey[];

export const settingsSchema = z.object(settingsShape).loose();

/**
 * A remote (docs/REMOTE.md): where histories are pushed. Never a secret here: the CLI takes
 * credentials from the AWS chain, the app from the OS keychain.
 */
export const remoteSchema = z
  .object({
    name: z.string().regex(REMOTE_NAME, REMOTE_NAME_RULE),
    url: z.string().refine(validRemoteUrl, 'a remote address looks like s3://bucket/prefix'),
    endpoint: z.string().refine(validEndpoint, 'an endpoint is an http(s) URL without credentials').nullable().default(null),
    region: z
      .string()
      .regex(/^[a-z0-9-]{1,64}$/, 'a region is lowercase letters, digits and dashes')
      .default('us-east-1'),
    pathStyle: z.boolean().default(false),
    addedAt: z.number().int().nonnegative(),
  })
  .loose();

export const windowSchema = z
  .object({
    bounds: z.object({ x: z.number(), y: z.number(), width: z.number().positive(), height: z.number().positive() }).loose().optional(),
    maximized: z.boolean().default(false),
  })
  .loose();

export const configSchema = z
  .object({
    version: z.literal(CONFIG_VERSION).default(CONFIG_VERSION),
    projects: z.array(projectSchema).default([]).superRefine(uniqueIds),
    settings: settingsSchema.prefault({}),
    window: windowSchema.prefault({}),
    remotes: z.array(remoteSchema).default([]).superRefine(uniqueNames),
  })
  .loose();

export type HindsightConfig = z.infer<typeof configSchema>;
export type KnownProject = z.infer<typeof projectSchema>;
export type RemoteConfig = z.infer<typeof remoteSchema>;
export type Settings = z.infer<typeof settingsSchema>;

function uniqueIds(projects: readonly { id: string }[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  projects.forEach((project, index) => {
    if (seen.has(project.id)) ctx.addIssue({ code: 'custom', message: `project id ${project.id} appears twice`, path: [index, 'id'] });
    seen.add(project.id);
  });
}

function uniqueNames(remotes: readonly { name: string }[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  remotes.forEach((remote, index) => {
    if (seen.has(remote.name)) ctx.addIssue({ code: 'custom', message: `remote ${remote.name} appears twice`, path: [index, 'name'] });
    seen.add(remote.name);
  });
}

function validRemoteUrl(url: string): boolean {
  try {
    parseRemoteUrl(url);
    return true;
  } catch {
    return false;
  }
}

function validEndpoint(endpoint: string): boolean {
  try {
    return parseEndpoint(endpoint) === endpoint;
  } catch {
    return false;
  }
}

/** A complete config with every default: what a missing config.json reads as. */
export function defaultConfig(): HindsightConfig {
  return configSchema.parse({});
}
