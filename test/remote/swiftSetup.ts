import type { TestProject } from 'vitest/node';
import { missingSwiftParts, startSwift } from '../../scripts/swift/privateSwift.js';
import type { SwiftEndpoint } from '../../scripts/swift/privateSwift.js';

// Global setup of the remote suites: one private OpenStack Swift (the real server, with its S3
// API) for every remote test file of the run, each file using buckets of its own. Without
// Swift's packages the suites say SKIPPED by name; with CI=true a missing Swift is a failure,
// and a Swift that is installed but does not start is always a failure.

export interface ProvidedSwift extends SwiftEndpoint {
  proxyLog: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    swift: ProvidedSwift | null;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const missing = missingSwiftParts();
  if (missing.length > 0) {
    const message = `remote suites (test/remote): SKIPPED, OpenStack Swift is not installed (missing ${missing.join(', ')}); apt-get install swift swift-proxy swift-object swift-container swift-account python3-swift memcached`;
    if (process.env.CI === 'true') throw new Error(`${message}\nCI=true: a missing Swift is a failure.`);
    console.log(message);
    project.provide('swift', null);
    return undefined;
  }
  const swift = await startSwift();
  const { endpoint, region, accessKeyId, secretAccessKey, proxyLog } = swift;
  project.provide('swift', { endpoint, region, accessKeyId, secretAccessKey, proxyLog });
  return () => swift.stop();
}
