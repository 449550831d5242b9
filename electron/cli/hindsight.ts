import nodeModule from 'node:module';
import { refuseUnsupportedNode } from '../../scripts/nodeRuntime.mjs';

// The `hindsight` executable: checks the Node.js first (an older one gets one line, not a stack
// trace from whatever it trips on first), turns on V8's compile cache for itself and the workers
// it starts, and only then loads the command runner, so every module it loads is compiled from
// the cache after the first run.
refuseUnsupportedNode('hindsight');
// A default import: a named one of a function an older Node lacks would fail before the check.
const compileCache = nodeModule.enableCompileCache();
// The call covers this thread only: a worker (copy, search, pack...) is a thread of its own that
// reads the cache only when NODE_COMPILE_CACHE is in its environment, which is a copy of this one.
if (compileCache.directory) process.env.NODE_COMPILE_CACHE = compileCache.directory;
// A specifier esbuild leaves alone: main.js is its own entry point beside this file.
const runner = './main.js';
await import(runner);
