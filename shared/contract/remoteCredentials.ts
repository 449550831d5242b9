import * as z from 'zod';

// A remote's access key and secret for the app, kept by main in the OS keychain
// (electron/main/remoteCredentials.ts): what the Store tab's form sends, checked by main against
// this schema before anything is stored. The CLI and the browser host use the AWS environment or
// profile instead (the host answers KEYCHAIN_UNAVAILABLE).

/** The same rule as config.json's remote names. */
export const remoteName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'a remote name is 1-64 letters, digits, dots, dashes or underscores, starting with a letter or digit');

const accessKeyId = z
  .string()
  .trim()
  .min(1, 'the access key is empty')
  .max(256)
  .regex(/^[\x21-\x7e]+$/, 'the access key has spaces or characters outside ASCII');
const secretAccessKey = z
  .string()
  .min(1, 'the secret is empty')
  .max(1024)
  .regex(/^[\x21-\x7e]+$/, 'the secret has spaces or characters outside ASCII');

export const remoteCredentialsRequestSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('status') }),
  z.strictObject({ action: z.literal('set'), remote: remoteName, accessKeyId, secretAccessKey }),
  z.strictObject({ action: z.literal('forget'), remote: remoteName }),
]);

export type RemoteCredentialsRequest = z.input<typeof remoteCredentialsRequestSchema>;

/** Never a key or a secret: only which remotes have credentials set. */
export interface RemoteCredentialsState {
  /** Names of the remotes whose credentials the keychain holds. */
  set: string[];
  /** Whether the OS keychain can encrypt here (without it nothing can be set). */
  available: boolean;
}

/** What main hands the history process (in memory only): a remote's credentials, or null to drop them. */
export const useRemoteCredentialsSchema = z.strictObject({
  remote: remoteName,
  credentials: z.strictObject({ accessKeyId, secretAccessKey }).nullable(),
});
