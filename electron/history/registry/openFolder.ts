import type { EngineEvent } from '../../../shared/contract.js';
import { isHindsightError } from '../../../shared/errors.js';
import type { ConfigStore, FrozenConfig } from '../config/configStore.js';
import { forgetProject, registerProject } from '../config/projectEdits.js';
import { sharedCopyPool, type CopyPool } from '../store/copyPool.js';
import type { OpenProject } from './openProject.js';
import { projectFolder } from '../project/projectFolder.js';
import { projectIdOf } from '../project/projectId.js';
import type { ProjectRegistry } from './projectRegistry.js';
import { reportOpenFailure } from './projectStates.js';
import { repairAtOpen } from './repairAtOpen.js';
import type { WriterWait } from '../project/writerLock.js';
import { adoptTwinHistory } from './twinProjects.js';

// The steps of an open around its first copy or rescan (versions/projectRecorder.ts's open, passed
// in as a step): the folder registered in config.json before anything is copied (a config that
// cannot be edited, corrupt, unreadable or locked, stops the open before any store exists), the
// settings applied, and the project marked opened. An open that fails because of its folder or its
// config is told as a projectState event too; a first copy past the large-folder settings that was
// not confirmed leaves no trace (its blobs were dropped; the project is forgotten again when this
// open registered it, and its store closed).

export interface OpenContext {
  dataDir: string;
  config: ConfigStore;
  projects: ProjectRegistry;
  emit: (event: EngineEvent) => void;
}

export interface OpenRequest extends WriterWait {
  /** Patterns excluded on top of the excludePatterns setting. */
  exclude?: readonly string[];
  /** A copy pool of the caller's own: the process-wide limit (copyConcurrency) is then left alone. */
  pool?: CopyPool;
  /** The user confirmed a first copy past the largeFolderFiles / largeFolderBytes settings. */
  confirmLarge?: boolean;
}

/** What the first copy or rescan takes from the settings. */
export interface RecordSettings {
  exclude: string[];
  maxFileSize: number | null;
  largeFolder: { files: number | null; bytes: number | null } | undefined;
}

/** The first copy or rescan, and what to do once the project is marked opened (its live recording, when asked). */
export interface OpenSteps<T> {
  record: (project: OpenProject, settings: RecordSettings) => Promise<T>;
  opened?: (project: OpenProject, opened: T) => Promise<void>;
}

/** `started`: when the open began (the result's time is measured from it). */
export async function openFolder<T>(
  context: OpenContext,
  folder: string,
  request: OpenRequest,
  steps: OpenSteps<T>,
): Promise<{ project: OpenProject; opened: T; started: number; repaired: string[] }> {
  const started = performance.now();
  const { project, settings, registeredNow, repaired } = await reportingFailure(context, folder, () => registered(context, folder, request));
  const opened = await reportingFailure(context, project.root, async () => {
    for (const line of await repairAtOpen(context, project, request)) repaired.push(line);
    try {
      return await steps.record(project, recordSettings(settings, request));
    } catch (error) {
      if (isHindsightError(error) && error.code === 'CONFIRM_LARGE_FOLDER') await unconfirmedLargeFolder(context, project, registeredNow);
      throw error;
    }
  });
  context.projects.markOpened(project);
  await steps.opened?.(project, opened);
  return { project, opened, started, repaired };
}

type Settings = FrozenConfig['settings'];

async function registered(
  context: OpenContext,
  folder: string,
  request: OpenRequest,
): Promise<{ project: OpenProject; settings: Settings; registeredNow: boolean; repaired: string[] }> {
  const root = projectFolder(folder, context.dataDir);
  const adopted = await adoptTwinHistory(context.config, context.dataDir, root);
  const registeredNow = !context.config.loadConfig().config.projects.some((p) => p.id === projectIdOf(root));
  // A folder new to the config is about to be copied: the copy worker that walks it boots while the
  // config is written and the store created (SQLite, the migrations), not after them. A reopen
  // starts none (most find nothing to copy).
  if (registeredNow) (request.pool ?? sharedCopyPool()).prestart();
  const { settings } = await context.config.editConfig(registerProject(root));
  if (!request.pool) sharedCopyPool().slots.setLimit(settings.copyConcurrency);
  return { project: context.projects.get(context.projects.locate(folder)), settings, registeredNow, repaired: adopted ? [adopted] : [] };
}

function recordSettings(settings: Settings, request: OpenRequest): RecordSettings {
  return {
    exclude: [...settings.excludePatterns, ...(request.exclude ?? [])],
    maxFileSize: settings.maxFileSize,
    largeFolder: request.confirmLarge ? undefined : { files: settings.largeFolderFiles, bytes: settings.largeFolderBytes },
  };
}

async function unconfirmedLargeFolder(context: OpenContext, project: OpenProject, registeredNow: boolean): Promise<void> {
  if (registeredNow) await context.config.editConfig(forgetProject(project.projectId)).catch(() => undefined);
  await context.projects.close(project.projectId);
}

async function reportingFailure<T>(context: OpenContext, folder: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    await reportOpenFailure(context.config, context.projects.summaries(), folder, error, context.emit);
    throw error;
  }
}
