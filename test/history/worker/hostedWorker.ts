import { HindsightError } from '../../../shared/errors.js';
import { serveRequests } from '../../../electron/history/serveRequests.js';
import { threadNiceness } from '../../helpers/threadNiceness.js';

// A worker script for workerHost.test.ts, built by the test with esbuild: it answers through the
// worker-side helper, as the project's worker scripts do.

export type HostedRequest =
  | { kind: 'echo'; value: string }
  | { kind: 'hold'; value: string }
  | { kind: 'release' }
  | { kind: 'typed' }
  | { kind: 'plain' }
  | { kind: 'exit' }
  | { kind: 'niceness' }
  | { kind: 'tell'; times: number };

// Held answers, given when a 'release' comes: replies that leave in another order than their requests came.
const held: (() => void)[] = [];

serveRequests((request: HostedRequest, tell: (progress: number) => void): string | number | Promise<string> => {
  switch (request.kind) {
    case 'echo':
      return request.value;
    case 'hold':
      return new Promise((resolve) => held.push(() => resolve(request.value)));
    case 'release':
      for (const answer of held.splice(0)) answer();
      return 'released';
    case 'typed':
      throw new HindsightError('BLOB_MISSING', 'The blob is missing.', { hash: 'ab'.repeat(32) });
    case 'plain':
      throw new Error('Something else broke.');
    case 'exit':
      process.exit(3);
    // eslint-disable-next-line no-fallthrough -- process.exit does not return
    case 'niceness':
      return threadNiceness();
    case 'tell':
      for (let i = 0; i < request.times; i++) tell(i);
      return 'told';
  }
});
