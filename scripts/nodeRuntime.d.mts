// Types of nodeRuntime.mjs for the TypeScript that imports it (the CLI's entry and the tests).
export declare const NODE_MINIMUM: [number, number];
export declare function runtimeRefusal(found: string, what: string): string | null;
export declare function refuseUnsupportedNode(what: string): void;
