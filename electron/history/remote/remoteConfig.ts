import type { S3ClientConfig } from '@aws-sdk/client-s3';
import { HindsightError } from '../../../shared/errors.js';
import { REMOTE_NAME, type HindsightConfig, type RemoteConfig } from '../config/configSchema.js';
import type { ConfigTransform, FrozenConfig } from '../config/configStore.js';
import { retryPolicyFromEnv, type RetryNotice } from './retry.js';
import type { S3ObjectStore } from './s3ObjectStore.js';
import { formatRemoteUrl, parseEndpoint, parseRemoteUrl } from '../config/remoteUrl.js';

// The remotes of config.json (`hindsight remote add|list|remove`) and the object store of one.
// A remote holds an address, never a secret: credentials come from the caller (the AWS chain in
// the CLI, the OS keychain in the app).

export interface RemoteInput {
  name: string;
  url: string;
  endpoint?: string;
  region?: string;
  pathStyle?: boolean;
}

/** Checks a remote as typed and gives it its stored form (normalized address and endpoint). */
export function remoteFromInput(input: RemoteInput, now: number = Date.now()): RemoteConfig {
  if (!REMOTE_NAME.test(input.name)) {
    throw new HindsightError('REMOTE_URL_INVALID', `"${input.name}" is not a valid remote name: use 1-64 letters, digits, dots, dashes or underscores.`, {
      name: input.name,
    });
  }
  const region = input.region ?? 'us-east-1';
  if (!/^[a-z0-9-]{1,64}$/.test(region)) {
    throw new HindsightError('REMOTE_URL_INVALID', `"${region}" is not a region (like us-east-1).`, { region });
  }
  return {
    name: input.name,
    url: formatRemoteUrl(parseRemoteUrl(input.url)),
    endpoint: input.endpoint === undefined ? null : parseEndpoint(input.endpoint),
    region,
    pathStyle: input.pathStyle ?? false,
    addedAt: now,
  };
}

export function addRemote(remote: RemoteConfig): ConfigTransform {
  return (config) => {
    if (config.remotes.some((r) => r.name === remote.name)) {
      throw new HindsightError('REMOTE_EXISTS', `There is already a remote named ${remote.name}. Remove it first to change it.`, { name: remote.name });
    }
    const draft = config as HindsightConfig;
    return { ...draft, remotes: [...draft.remotes, remote] };
  };
}

export function removeRemote(name: string): ConfigTransform {
  return (config) => {
    requireRemote(config, name);
    const draft = config as HindsightConfig;
    return { ...draft, remotes: draft.remotes.filter((r) => r.name !== name) };
  };
}

/** The remotes of a config as read (frozen: a read-only view of the stored form). */
export function configuredRemotes(config: FrozenConfig): readonly RemoteConfig[] {
  return config.remotes as RemoteConfig[];
}

/** The remote named, or the only one when no name is given. */
export function requireRemote(config: FrozenConfig, name: string | undefined): RemoteConfig {
  const remotes = configuredRemotes(config);
  if (name === undefined) {
    if (remotes.length === 1) return remotes[0]!;
    throw new HindsightError(
      'REMOTE_NOT_FOUND',
      remotes.length === 0
        ? 'No remote is set: add one with `hindsight remote add NAME s3://bucket/prefix`.'
        : `Several remotes are set (${remotes.map((r) => r.name).join(', ')}): name one with --remote.`,
    );
  }
  const found = remotes.find((r) => r.name === name);
  if (!found) {
    throw new HindsightError(
      'REMOTE_NOT_FOUND',
      `There is no remote named ${name}${remotes.length ? ` (known: ${remotes.map((r) => r.name).join(', ')})` : ''}.`,
      { name },
    );
  }
  return found;
}

/**
 * What identifies a remote's contents whatever it is called locally: what a push noted about it
 * is kept under this key, so a remote removed and added again under another name resumes.
 */
export function remoteIdentity(remote: RemoteConfig): string {
  return `${remote.endpoint ?? 'aws'} ${remote.url}`;
}

export interface RemoteStoreOptions {
  /** Fixed keys (the app's keychain); undefined: the AWS default chain (environment, profile). */
  credentials?: S3ClientConfig['credentials'];
  onRetry?: (notice: RetryNotice) => void;
}

/**
 * The remote's object store. The S3 SDK is loaded here, on first use: it is most of what a CLI
 * process would otherwise compile at every start, and most commands never speak to a remote.
 */
export async function openRemoteStore(remote: RemoteConfig, options: RemoteStoreOptions = {}): Promise<S3ObjectStore> {
  const { S3ObjectStore } = await import('./s3ObjectStore.js');
  return new S3ObjectStore({
    location: parseRemoteUrl(remote.url),
    endpoint: remote.endpoint ?? undefined,
    region: remote.region,
    pathStyle: remote.pathStyle,
    credentials: options.credentials,
    retry: retryPolicyFromEnv(),
    onRetry: options.onRetry,
  });
}
