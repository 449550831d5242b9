// Types of startPlan.mjs for the TypeScript that imports it (the e2e suite and the tests).
export declare function electronBinary(root: string): { found: true; path: string } | { found: false; reason: string };
export declare function appBlocker(machine: { root: string; env: Record<string, string | undefined>; platform: string }): string | null;
export declare function missingBuilds(root: string): ('cli' | 'viewer')[];
