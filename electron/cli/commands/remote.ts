import type { RemoteConfig } from '../../history/config/configSchema.js';
import { addRemote, configuredRemotes, remoteFromInput, removeRemote } from '../../history/remote/remoteConfig.js';
import { UsageError, writeJson, type Command, type CommandContext } from '../command.js';

// `remote add NAME URL [--endpoint URL] [--region R] [--path-style]`, `remote list`,
// `remote remove NAME`: the remotes of config.json. Addresses only; credentials come from the
// AWS environment variables or profile when a push or clone runs.

export const remoteCommand: Command = {
  name: 'remote',
  usage: 'remote add NAME s3://BUCKET[/PREFIX] [--endpoint URL] [--region R] [--path-style] | remote list | remote remove NAME',
  summary: 'Set, list or remove the S3-compatible stores histories are pushed to.',
  flags: { endpoint: { type: 'string' }, region: { type: 'string' }, 'path-style': { type: 'boolean' } },
  async run(ctx) {
    const [action, ...args] = ctx.positionals;
    if (action !== 'add' && (ctx.flags.endpoint !== undefined || ctx.flags.region !== undefined || ctx.flags['path-style'] !== undefined)) {
      throw new UsageError('--endpoint, --region and --path-style go with remote add');
    }
    if (action === 'add') return add(ctx, args);
    if (action === 'list') return list(ctx, args);
    if (action === 'remove') return remove(ctx, args);
    throw new UsageError(action === undefined ? 'missing add, list or remove' : `unknown action ${JSON.stringify(action)}: use add, list or remove`);
  },
};

async function add(ctx: CommandContext, args: string[]): Promise<void> {
  if (args.length < 2) throw new UsageError(`missing ${args.length === 0 ? 'NAME URL' : 'URL'}`);
  if (args.length > 2) throw new UsageError(`unexpected argument ${args[2]}`);
  const remote = remoteFromInput({
    name: args[0]!,
    url: args[1]!,
    endpoint: stringFlag(ctx, 'endpoint'),
    region: stringFlag(ctx, 'region'),
    pathStyle: ctx.flags['path-style'] === true,
  });
  await ctx.engine().config.editConfig(addRemote(remote));
  if (ctx.json) writeJson(ctx, remote);
  else ctx.out.write(`Added remote ${remote.name}: ${describe(remote)}\n`);
}

function list(ctx: CommandContext, args: string[]): void {
  if (args.length > 0) throw new UsageError(`unexpected argument ${args[0]}`);
  const remotes = configuredRemotes(ctx.engine().config.requireConfig());
  if (ctx.json) return writeJson(ctx, remotes);
  if (remotes.length === 0) ctx.out.write('No remotes. Add one with: hindsight remote add NAME s3://bucket/prefix\n');
  for (const remote of remotes) ctx.out.write(`${remote.name}\t${describe(remote)}\n`);
}

async function remove(ctx: CommandContext, args: string[]): Promise<void> {
  if (args.length < 1) throw new UsageError('missing NAME');
  if (args.length > 1) throw new UsageError(`unexpected argument ${args[1]}`);
  await ctx.engine().config.editConfig(removeRemote(args[0]!));
  if (ctx.json) writeJson(ctx, { removed: args[0] });
  else ctx.out.write(`Removed remote ${args[0]} (nothing on the store was deleted).\n`);
}

function describe(remote: RemoteConfig): string {
  return [remote.url, remote.endpoint ? `at ${remote.endpoint}` : '', `region ${remote.region}`, remote.pathStyle ? 'path-style' : '']
    .filter(Boolean)
    .join(' ');
}

function stringFlag(ctx: CommandContext, name: string): string | undefined {
  const value = ctx.flags[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} takes a value`);
  return value;
}
