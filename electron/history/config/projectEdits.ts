import { basename } from 'node:path';
import { currentIdentity, sameIdentity } from '../project/folderIdentity.js';
import { projectIdOf } from '../project/projectId.js';
import type { HindsightConfig, KnownProject, ProjectState, SettingKey } from './configSchema.js';
import type { ConfigTransform, FrozenConfig } from './configStore.js';

// Transforms for editConfig: each returns a new config (the committed one is frozen and shared),
// or the very same object when there is nothing to change, so no save happens.

/** Registers an opened folder: a new entry, or the old one with its open time and state refreshed. */
export function registerProject(root: string, now: number = Date.now()): ConfigTransform {
  const id = projectIdOf(root);
  const found = currentIdentity(root);
  const identity = found && { ...found };
  return (config) => {
    const known = config.projects.find((p) => p.id === id);
    if (!known) {
      const added: KnownProject = { id, root, name: basename(root) || root, addedAt: now, lastOpenedAt: now, pinned: false, lastSeen: 'present', identity };
      return { ...thaw(config), projects: [...thaw(config).projects, added] };
    }
    // The first identity stays: a folder replaced at the same path is another folder, and says so.
    const lastSeen: ProjectState = known.identity && identity && !sameIdentity(known.identity, identity) ? 'moved' : 'present';
    return replaceProject(config, id, { lastOpenedAt: now, lastSeen, identity: thawProject(known).identity ?? identity });
  };
}

/** Forgets a project (its history store, if any, stays on disk); unknown ids save nothing. */
export function forgetProject(id: string): ConfigTransform {
  return (config) => (config.projects.some((p) => p.id === id) ? { ...thaw(config), projects: thaw(config).projects.filter((p) => p.id !== id) } : config);
}

/** A project's folder found at a new place (same folder identity): its entry follows it, name and pin kept. */
export function moveProject(id: string, newId: string, root: string): ConfigTransform {
  return (config) => {
    const known = config.projects.find((p) => p.id === id);
    if (!known) return config;
    // A name that was only the old folder's name follows the folder; a name the user chose stays.
    const name = known.name === (basename(known.root) || known.root) ? basename(root) || root : known.name;
    const moved: KnownProject = { ...thawProject(known), id: newId, root, name, lastSeen: 'present' };
    return { ...thaw(config), projects: thaw(config).projects.map((p) => (p.id === id ? moved : p)) };
  };
}

/** Records what a look at a project's folder found; unchanged or unknown projects save nothing. */
export function setLastSeen(id: string, state: ProjectState): ConfigTransform {
  return (config) => {
    const known = config.projects.find((p) => p.id === id);
    if (!known || known.lastSeen === state) return config;
    return replaceProject(config, id, { lastSeen: state });
  };
}

export function setSetting(key: SettingKey, value: unknown): ConfigTransform {
  return (config) => ({ ...thaw(config), settings: { ...thaw(config).settings, [key]: value } as HindsightConfig['settings'] });
}

function replaceProject(config: FrozenConfig, id: string, change: Partial<KnownProject>): HindsightConfig {
  const projects = thaw(config).projects.map((p) => (p.id === id ? { ...p, ...change } : p));
  return { ...thaw(config), projects };
}

function thawProject(project: FrozenConfig['projects'][number]): KnownProject {
  return project as KnownProject;
}

/** A frozen config seen through the mutable type, for building a new one; nothing is written into it. */
function thaw(config: FrozenConfig): HindsightConfig {
  return config as HindsightConfig;
}
