import { HindsightError } from '../../../shared/errors.js';
import type { ConfigView, ParsedRequestOf, ProjectSummary, Settings } from '../../../shared/contract.js';
import { errorData } from '../errorData.js';
import { SETTING_KEYS, type HindsightConfig } from './configSchema.js';
import type { ConfigRead, ConfigTransform } from './configStore.js';

// The contract's view of config.json and its one edit, on top of the config store: settings
// patched key by key, projects renamed, pinned or forgotten, all in one transform (one save).

export function configView(read: ConfigRead, projects: ProjectSummary[]): ConfigView {
  return { settings: settingsOf(read), projects, error: read.error ? errorData(read.error) : null };
}

/** The settings the contract knows, whatever else config.json holds. */
export function settingsOf(read: ConfigRead): Settings {
  return Object.fromEntries(SETTING_KEYS.map((key) => [key, read.config.settings[key]])) as Settings;
}

export function configEdit(edit: ParsedRequestOf<'editConfig'>): ConfigTransform {
  return (config) => {
    if (!edit.settings && !edit.projects?.length) return config;
    const draft = config as HindsightConfig;
    let projects = draft.projects;
    for (const change of edit.projects ?? []) {
      if (!projects.some((p) => p.id === change.projectId)) {
        throw new HindsightError('NOT_FOUND', `No project with id ${change.projectId} is known.`, { projectId: change.projectId });
      }
      projects = change.forget
        ? projects.filter((p) => p.id !== change.projectId)
        : projects.map((p) =>
            p.id !== change.projectId
              ? p
              : { ...p, ...(change.name !== undefined && { name: change.name }), ...(change.pinned !== undefined && { pinned: change.pinned }) },
          );
    }
    return { ...draft, settings: { ...draft.settings, ...edit.settings }, projects };
  };
}
