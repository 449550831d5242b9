// The names of every call and event, without their schemas: the client side (preload, browser
// bridge) needs only these, so it does not carry zod. shared/contract.ts checks at compile time
// that these lists match its catalogue exactly.

export const CALL_NAME_LIST = [
  'openProject',
  'relocateProject',
  'closeProject',
  'listProjects',
  'log',
  'snapshotChanges',
  'snapshotSummary',
  'fileTree',
  'versions',
  'diskState',
  'readVersion',
  'diffInputs',
  'gitVersions',
  'restoreFile',
  'restoreFromGit',
  'previewRestore',
  'restoreSnapshot',
  'materializeSnapshot',
  'exportHistory',
  'importHistory',
  'rescan',
  'createCheckpoint',
  'deletedFiles',
  'search',
  'storeStats',
  'pins',
  'setPin',
  'prune',
  'retentionStatus',
  'remoteStatus',
  'useRemoteCredentials',
  'dataFolder',
  'verify',
  'getConfig',
  'editConfig',
  'cancel',
] as const;

export const EVENT_NAME_LIST = ['progress', 'snapshot', 'projectState', 'error', 'connection', 'appCommand'] as const;
