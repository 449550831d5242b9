import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import * as z from 'zod';
import { HindsightError } from '../../shared/errors.js';

// A remote's access key and secret for the app, kept in the data folder encrypted by the OS
// keychain (Electron's safeStorage, handed in as a Cipher so this module is plain Node and
// testable), never in config.json. One file, `<dataDir>/remote-credentials.json`, mode 0600:
// {"format":"hindsight-credentials","version":1,"remotes":{"<name>":"<base64 of the ciphertext>"}},
// the ciphertext being of {"accessKeyId","secretAccessKey"}. Only the remotes' names are in
// clear. A file that cannot be read as this format is never overwritten: every change is refused
// with CREDENTIALS_UNREADABLE naming it, so a key that might still be in it is not lost.

export const CREDENTIALS_FILE = 'remote-credentials.json';
const FORMAT = 'hindsight-credentials';
const VERSION = 1;

/** The keychain: Electron's safeStorage in the app. */
export interface Cipher {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

export interface RemoteCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

const fileSchema = z.strictObject({
  format: z.literal(FORMAT),
  version: z.literal(VERSION),
  remotes: z.record(z.string(), z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/)),
});
const secretSchema = z.strictObject({ accessKeyId: z.string().min(1), secretAccessKey: z.string().min(1) });

export class CredentialsFile {
  readonly path: string;

  constructor(
    dataDir: string,
    private readonly cipher: Cipher,
  ) {
    this.path = join(dataDir, CREDENTIALS_FILE);
  }

  /** The names of the remotes with credentials set. */
  names(): string[] {
    return Object.keys(this.read()).sort();
  }

  /** A remote's credentials, decrypted; undefined when none are set. */
  get(name: string): RemoteCredentials | undefined {
    const sealed = this.read()[name];
    if (sealed === undefined) return undefined;
    this.requireKeychain();
    let plain: string;
    try {
      plain = this.cipher.decryptString(Buffer.from(sealed, 'base64'));
    } catch (error) {
      throw this.unreadable(`the keychain could not decrypt the entry of ${name} (${(error as Error).message})`);
    }
    const parsed = secretSchema.safeParse(safeJson(plain));
    if (!parsed.success) throw this.unreadable(`the entry of ${name} is not a key and a secret`);
    return parsed.data;
  }

  /** Every remote's credentials (the entries that cannot be decrypted are left out and named). */
  all(): { credentials: Map<string, RemoteCredentials>; unreadable: string[] } {
    const credentials = new Map<string, RemoteCredentials>();
    const unreadable: string[] = [];
    for (const name of this.names()) {
      try {
        credentials.set(name, this.get(name)!);
      } catch (error) {
        if (error instanceof HindsightError && error.code === 'KEYCHAIN_UNAVAILABLE') throw error;
        unreadable.push(name);
      }
    }
    return { credentials, unreadable };
  }

  /** Sets or replaces a remote's credentials. */
  set(name: string, credentials: RemoteCredentials): void {
    this.requireKeychain();
    const remotes = this.read();
    remotes[name] = this.cipher.encryptString(JSON.stringify(secretSchema.parse(credentials))).toString('base64');
    this.write(remotes);
  }

  /** Forgets a remote's credentials; false when none were set. */
  forget(name: string): boolean {
    const remotes = this.read();
    if (!(name in remotes)) return false;
    delete remotes[name];
    this.write(remotes);
    return true;
  }

  private read(): Record<string, string> {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw this.unreadable((error as Error).message);
    }
    const parsed = fileSchema.safeParse(safeJson(text));
    if (!parsed.success) {
      const version = (safeJson(text) as { version?: unknown } | undefined)?.version;
      throw this.unreadable(
        typeof version === 'number' && version > VERSION ? `it is of a newer format (version ${version})` : 'it is not a credentials file of this format',
      );
    }
    return { ...parsed.data.remotes };
  }

  /** Written whole beside the file and renamed over it: a crash leaves the old file or the new one. */
  private write(remotes: Record<string, string>): void {
    const temp = `${this.path}.${randomBytes(6).toString('hex')}.tmp`;
    const fd = openSync(temp, 'wx', 0o600);
    try {
      const body = Buffer.from(`${JSON.stringify({ format: FORMAT, version: VERSION, remotes }, null, 2)}\n`);
      for (let at = 0; at < body.length;) at += writeSync(fd, body, at);
      fsyncSync(fd);
    } catch (error) {
      closeSync(fd);
      rmSync(temp, { force: true });
      throw error;
    }
    closeSync(fd);
    renameSync(temp, this.path);
  }

  private requireKeychain(): void {
    if (!this.cipher.isEncryptionAvailable()) {
      throw new HindsightError(
        'KEYCHAIN_UNAVAILABLE',
        'The system keychain is not available, so remote credentials cannot be kept safely; use the AWS environment variables or profile instead.',
      );
    }
  }

  private unreadable(why: string): HindsightError {
    return new HindsightError(
      'CREDENTIALS_UNREADABLE',
      `The remote credentials file ${this.path} cannot be used: ${why}. It was left as it is; move it away to enter the credentials again.`,
      { path: this.path },
    );
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
