import type { TestContext } from 'vitest';

// A test that needs a mount it cannot make here (a small tmpfs, an XFS loop file system) is skipped
// by name with the reason, never passed by returning early; under CI=true, where .ci/run installs
// and runs as root, the mount must work, so a failure there fails the test instead.

/** The mount, or skips the test (fails it under CI=true) when `mount` is the reason it could not be made. */
export function mountOrSkip<T>(ctx: TestContext, mount: T | string, what: string): T {
  if (typeof mount !== 'string') return mount;
  if (process.env.CI === 'true') throw new Error(`${what} could not be mounted, and CI must run this test: ${mount}`);
  ctx.skip(`${what} could not be mounted: ${mount}`);
  throw new Error('unreachable: ctx.skip throws');
}
