import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';

// `hindsight remote add NAME s3://b --endpoint URL` with a key and secret typed into the URL
// (or into something that is not even a URL): refused, and neither the key nor the secret is
// written anywhere a person or a log could read them: stdout, stderr (text or --json),
// config.json.

const KEY = 'AKIDEXAMPLEKEY';
const SECRET = 'wJalr/XUtnFEMI+K7MDENGbPxRfiCYsecret';

describe('remote add --endpoint with credentials in it', () => {
  it('is refused without echoing the key or the secret', async () => {
    const dataDir = tempDir('hindsight-data-');
    for (const endpoint of [
      `https://${KEY}:${SECRET}@s3.example.com`,
      `http://${KEY}:${SECRET}@127.0.0.1:9000/`,
      `ftp://${KEY}:${SECRET}@s3.example.com`,
      `${KEY}:${SECRET}@s3.example.com`,
      `https://${KEY}:${SECRET}@s3 example`,
      `https://s3.example.com/?X-Amz-Credential=${KEY}&X-Amz-Signature=${SECRET}`,
    ]) {
      for (const json of [[], ['--json']]) {
        const refused = await runCli(['remote', 'add', 'backup', 's3://my-bucket', '--endpoint', endpoint, '--data-dir', dataDir, ...json]);
        const said = `${refused.stdout.toString()}${refused.stderr}`;
        expect(refused.code, endpoint).not.toBe(0);
        expect(said, endpoint).toContain('The endpoint');
        expect(said, endpoint).not.toContain(SECRET);
        expect(said, endpoint).not.toContain('secret');
        expect(said, endpoint).not.toContain(KEY);
      }
    }
    const config = join(dataDir, 'config.json');
    if (existsSync(config)) {
      expect(readFileSync(config, 'utf8')).not.toContain('secret');
      expect(readFileSync(config, 'utf8')).not.toContain(KEY);
    }
    // The same endpoint without them is taken.
    const added = await runCli(['remote', 'add', 'backup', 's3://my-bucket', '--endpoint', 'https://s3.example.com', '--data-dir', dataDir]);
    expect(added.code).toBe(0);
  });
});
