// The remote's work behind RemoteOperations, loaded as one module on the first call that reaches a
// remote: one dynamic import keeps the bundle to one chunk for it, where one import per function
// cut the modules they share into many small chunks that every start would open.
export { cloneInto } from './fetch/cloneInto.js';
export { pullProject } from './fetch/pullProject.js';
export { pushHistory } from './push/pushHistory.js';
export { remoteOnlyBlobs } from './remoteOnlyBlobs.js';
