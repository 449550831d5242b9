import { count } from '../trace.js';
import { configSchema, defaultConfig, projectSchema, settingsShape, settingsSchema, windowSchema, type HindsightConfig } from './configSchema.js';

// config.json bytes to a config. Three outcomes: valid; valid JSON whose structure is wrong in
// places (what can be salvaged is offered to lenient readers, never cached, never edited); and
// bytes that are not a JSON object at all. Every call is one parse, counted as config.parses.

export type ParseOutcome =
  { kind: 'valid'; config: HindsightConfig } | { kind: 'invalid'; salvaged: HindsightConfig; reason: string } | { kind: 'corrupt'; reason: string };

export function parseConfig(bytes: Buffer): ParseOutcome {
  count('config.parses');
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    return { kind: 'corrupt', reason: `it is not valid JSON (${(error as Error).message})` };
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { kind: 'corrupt', reason: 'it is not a JSON object' };
  const parsed = configSchema.safeParse(raw);
  if (parsed.success) return { kind: 'valid', config: parsed.data };
  const first = parsed.error.issues[0];
  const where = first?.path.length ? first.path.join('.') : 'the top level';
  return { kind: 'invalid', salvaged: salvage(raw as Record<string, unknown>), reason: `${where}: ${first?.message ?? 'invalid'}` };
}

/** Keeps every part of a structurally invalid config that is valid on its own; the rest reads as defaults. */
function salvage(raw: Record<string, unknown>): HindsightConfig {
  const base = defaultConfig();
  const seen = new Set<string>();
  const projects = (Array.isArray(raw.projects) ? raw.projects : []).flatMap((entry) => {
    const project = projectSchema.safeParse(entry);
    if (!project.success || seen.has(project.data.id)) return [];
    seen.add(project.data.id);
    return [project.data];
  });
  const rawSettings = raw.settings && typeof raw.settings === 'object' ? (raw.settings as Record<string, unknown>) : {};
  const settings = { ...base.settings };
  for (const [key, schema] of Object.entries(settingsShape)) {
    const value = schema.safeParse(rawSettings[key]);
    if (value.success) (settings as Record<string, unknown>)[key] = value.data;
  }
  const window = windowSchema.safeParse(raw.window);
  return { ...base, projects, settings: settingsSchema.parse(settings), window: window.success ? window.data : base.window };
}
