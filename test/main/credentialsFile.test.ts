import { describe, expect, it } from 'vitest';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CREDENTIALS_FILE, CredentialsFile, type Cipher } from '../../electron/main/credentialsFile.js';
import { tempDir } from '../helpers/tempDirs.js';
import { codeOf } from '../helpers/errorCode.js';

// The app's remote credentials file. Electron (and so safeStorage, the OS keychain) cannot run
// here: a real reversible cipher from node:crypto (AES-256-GCM under a random key) stands in for
// safeStorage, which is acceptable only for that reason. The app wires the real safeStorage
// (electron/main/keychain.ts, type-checked against Electron's types); e2e/electron/app.spec.ts
// has the case that runs where Electron does.

function aesCipher(available = true): Cipher & { key: Buffer } {
  const key = randomBytes(32);
  return {
    key,
    isEncryptionAvailable: () => available,
    encryptString(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decryptString(sealed) {
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(12, 28));
      return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

describe('the remote credentials file', () => {
  it("keeps each remote's key and secret encrypted, 0600, keyed by name; replaces and forgets them", () => {
    const dataDir = tempDir('hindsight-data-');
    const cipher = aesCipher();
    const file = new CredentialsFile(dataDir, cipher);
    expect(file.names()).toEqual([]);
    file.set('origin', { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: SECRET });
    file.set('backup', { accessKeyId: 'other', secretAccessKey: 'other-secret' });
    const path = join(dataDir, CREDENTIALS_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('AKIAEXAMPLE');
    expect(JSON.parse(text)).toMatchObject({ format: 'hindsight-credentials', version: 1 });
    expect(file.names()).toEqual(['backup', 'origin']);

    // Another instance (the next start of the app) reads them back with the same keychain.
    const again = new CredentialsFile(dataDir, cipher);
    expect(again.get('origin')).toEqual({ accessKeyId: 'AKIAEXAMPLE', secretAccessKey: SECRET });
    again.set('origin', { accessKeyId: 'AKIANEW', secretAccessKey: 'new-secret' });
    expect(file.get('origin')).toEqual({ accessKeyId: 'AKIANEW', secretAccessKey: 'new-secret' });
    expect(file.forget('origin')).toBe(true);
    expect(file.forget('origin')).toBe(false);
    expect(file.get('origin')).toBeUndefined();
    expect(file.names()).toEqual(['backup']);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('refuses every change to a file it cannot read, leaving it byte for byte; names an entry another keychain sealed', () => {
    const dataDir = tempDir('hindsight-data-');
    const path = join(dataDir, CREDENTIALS_FILE);
    const file = new CredentialsFile(dataDir, aesCipher());
    for (const body of [
      '{"format":"hindsight-credentials","version":1,"remotes":{"origin":',
      '[]',
      '{"format":"hindsight-credentials","version":2,"remotes":{}}',
    ]) {
      writeFileSync(path, body);
      expect(
        codeOf(() => file.names()),
        body,
      ).toBe('CREDENTIALS_UNREADABLE');
      expect(
        codeOf(() => file.set('origin', { accessKeyId: 'a', secretAccessKey: 'b' })),
        body,
      ).toBe('CREDENTIALS_UNREADABLE');
      expect(
        codeOf(() => file.forget('origin')),
        body,
      ).toBe('CREDENTIALS_UNREADABLE');
      expect(readFileSync(path, 'utf8')).toBe(body);
    }
    try {
      file.names();
    } catch (error) {
      expect((error as Error).message).toContain(path);
      expect((error as Error).message).toContain('newer format (version 2)');
    }

    writeFileSync(path, '{"format":"hindsight-credentials","version":1,"remotes":{}}');
    new CredentialsFile(dataDir, aesCipher()).set('origin', { accessKeyId: 'a', secretAccessKey: 'b' });
    const other = new CredentialsFile(dataDir, aesCipher());
    expect(codeOf(() => other.get('origin'))).toBe('CREDENTIALS_UNREADABLE');
    expect(other.all()).toEqual({ credentials: new Map(), unreadable: ['origin'] });
  });

  it('refuses to store anything without a keychain (never in clear) but still forgets', () => {
    const dataDir = tempDir('hindsight-data-');
    const file = new CredentialsFile(dataDir, aesCipher(false));
    expect(codeOf(() => file.set('origin', { accessKeyId: 'a', secretAccessKey: SECRET }))).toBe('KEYCHAIN_UNAVAILABLE');
    expect(file.names()).toEqual([]);
    expect(codeOf(() => file.set('origin', { accessKeyId: '', secretAccessKey: SECRET }))).toBe('KEYCHAIN_UNAVAILABLE');
    const usable = new CredentialsFile(dataDir, aesCipher());
    expect(() => usable.set('origin', { accessKeyId: '', secretAccessKey: SECRET })).toThrow();
    expect(usable.names()).toEqual([]);
  });
});
