// What a background recorder service runs: `hindsight watch --all` for one data folder, started
// with this very Node.js and this very CLI, by absolute paths (a service manager has no PATH of
// the user's shell, and a later Node upgrade must not silently change what runs).

export interface ServiceSpec {
  /** Absolute path of the Node.js executable. */
  node: string;
  /** Absolute path of the built CLI (out/cli/hindsight.js, or the installed bin's target). */
  cli: string;
  /** Absolute path of the data folder the recorder records for. */
  dataDir: string;
}

/** The recorder's command line, as an argument vector. */
export function serviceArgv(spec: ServiceSpec): string[] {
  return [spec.node, spec.cli, 'watch', '--all', '--data-dir', spec.dataDir];
}
