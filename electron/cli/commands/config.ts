import { parseByteSize } from '../../../shared/byteSize.js';
import { SETTING_KEYS, settingsShape, type SettingKey } from '../../history/config/configSchema.js';
import { invalidError } from '../../history/config/configErrors.js';
import { setSetting } from '../../history/config/projectEdits.js';
import { UsageError, writeJson, type Command, type CommandContext } from '../command.js';

// `config get [KEY]` prints the settings (or one of them) as JSON; `config set KEY VALUE` checks
// VALUE against the schema (as JSON when it parses, else as a string) before anything is saved.
// A size setting takes units (`historyBudget 1GiB`); a part of the retention policy is set by its
// dotted name (`retention.hourly 48`), the rest of the policy kept.

/** Settings that are byte counts: their values may be typed with a unit. */
const SIZE_SETTINGS: ReadonlySet<SettingKey> = new Set(['historyBudget', 'maxFileSize', 'largeFolderBytes']);

export const configCommand: Command = {
  name: 'config',
  usage: 'config get [KEY] | config set KEY VALUE',
  summary: `Show or change a setting (${SETTING_KEYS.join(', ')}).`,
  async run(ctx) {
    const [action, ...args] = ctx.positionals;
    if (action === 'get') return get(ctx, args);
    if (action === 'set') return set(ctx, args);
    throw new UsageError(action === undefined ? 'missing get or set' : `unknown action ${JSON.stringify(action)}: use get or set`);
  },
};

function get(ctx: CommandContext, args: string[]): void {
  if (args.length > 1) throw new UsageError(`unexpected argument ${args[1]}`);
  const engine = ctx.engine();
  // A corrupt or unreadable config.json fails here with its clear error; the settings printed are the viewer's (getConfig).
  engine.config.requireConfig();
  const { settings } = engine.configView();
  const [key] = args;
  writeJson(ctx, key === undefined ? settings : settings[settingKey(key)]);
}

async function set(ctx: CommandContext, args: string[]): Promise<void> {
  if (args.length < 2) throw new UsageError(`missing ${args.length === 0 ? 'KEY VALUE' : 'VALUE'}`);
  if (args.length > 2) throw new UsageError(`unexpected argument ${args[2]}`);
  const [name, part] = splitKey(args[0]!);
  const key = settingKey(name);
  const engine = ctx.engine();
  let raw = parseValue(args[1]!, SIZE_SETTINGS.has(key));
  if (part !== undefined) {
    const whole = engine.configView().settings[key];
    if (typeof whole !== 'object' || whole === null || Array.isArray(whole) || !(part in whole)) {
      throw invalidError(`There is no setting ${JSON.stringify(args[0])}.`, { key: args[0] });
    }
    raw = { ...whole, [part]: raw };
  }
  const checked = settingsShape[key].safeParse(raw);
  if (!checked.success) {
    const why = checked.error.issues[0]?.message ?? 'invalid value';
    throw invalidError(`${JSON.stringify(raw)} is not a valid ${key}: ${why}.`, { key, value: raw });
  }
  await engine.config.editConfig(setSetting(key, checked.data));
  const { settings } = engine.configView();
  if (ctx.json) writeJson(ctx, settings);
  else ctx.out.write(`${key} = ${JSON.stringify(settings[key])}\n`);
}

function settingKey(key: string): SettingKey {
  if ((SETTING_KEYS as string[]).includes(key)) return key as SettingKey;
  throw invalidError(`There is no setting ${JSON.stringify(key)}. Settings: ${SETTING_KEYS.join(', ')}.`, { key });
}

function splitKey(key: string): [string, string | undefined] {
  const dot = key.indexOf('.');
  return dot < 0 ? [key, undefined] : [key.slice(0, dot), key.slice(dot + 1)];
}

/** A value as typed on the command line: a size with a unit where sizes go, JSON when it parses (2000, true, ["*.log"], null), else the text itself. */
function parseValue(text: string, size: boolean): unknown {
  if (size && /[a-z]\s*$/i.test(text) && text.trim() !== 'null') {
    const bytes = parseByteSize(text);
    if (bytes !== undefined) return bytes;
  }
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
