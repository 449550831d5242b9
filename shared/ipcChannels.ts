// The few messages between main and the preload. Calls and events never pass here: they travel on
// the MessagePort main hands each window, straight to the history process.

export const IPC = {
  /** preload -> main: this window wants its port to the history process. */
  connect: 'hindsight:connect',
  /** main -> preload: the port (transferred with the message). */
  port: 'hindsight:port',
  /** main -> preload: the history process died; a new port follows when it is back. */
  disconnected: 'hindsight:disconnected',
  /** preload -> main (invoke): show the native open-folder dialog; answers a path or null. */
  chooseFolder: 'hindsight:chooseFolder',
  /** preload -> main (invoke, a suggested file name): the native save dialog for a history bundle. */
  chooseBundleTarget: 'hindsight:chooseBundleTarget',
  /** preload -> main (invoke): the native open dialog for a history bundle. */
  chooseBundleSource: 'hindsight:chooseBundleSource',
  /** preload -> main (invoke, a RemoteCredentialsRequest): a remote's credentials in the OS keychain; answers a Result. */
  remoteCredentials: 'hindsight:remoteCredentials',
  /** preload -> main (invoke, a boolean): start the app at login or not; answers a Result. */
  setStartAtLogin: 'hindsight:setStartAtLogin',
  /** preload -> main (invoke, { quit: boolean }): after the close notice, close this window or quit. */
  closeWindow: 'hindsight:closeWindow',
  /** main -> preload: an AppCommand from a menu, the command line or a second instance. */
  appCommand: 'hindsight:appCommand',
} as const;

/** The argument main passes a window's preload (webPreferences.additionalArguments) with the app version. */
export const VERSION_ARG = '--hindsight-version=';
