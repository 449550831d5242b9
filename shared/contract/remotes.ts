// A project's remotes as its history sees them, and what a pull brought in.

/** One remote of config.json as seen from one project's history (no request to the remote is made). */
export interface RemoteStatus {
  name: string;
  url: string;
  /** never-pushed: nothing sent yet; behind: snapshots recorded here are not on the remote yet; error: the last push failed. */
  state: 'up-to-date' | 'behind' | 'never-pushed' | 'error';
  /** Snapshots of this machine the remote does not have yet. */
  behind: number;
  /** Snapshots of this machine on the remote. */
  pushed: number;
  /** When the last push finished (ms since 1970), or null. */
  lastPushAt: number | null;
  /** The last push's failure, until a push succeeds. */
  lastError: string | null;
}

/** One other machine of a project, with what a pull brought in from it. */
export interface PulledMachine {
  machine: string;
  /** The machine's host name, as its head gives it. */
  name: string;
  /** Snapshots imported from it by this pull. */
  snapshots: number;
  /** The newest of them: its id on that machine, and here. */
  newest: { origin: number; snapshotId: number } | null;
}

/** What `pull` brought in: other machines' new snapshots (the folder is not changed). */
export interface PullResult {
  projectId: string;
  remoteProjectId: string;
  remote: string;
  /** This data folder's machine id. */
  machine: string;
  /** Snapshots imported in all. */
  snapshots: number;
  machines: PulledMachine[];
  /** Objects read (heads, indexes, records), the LIST not counted. */
  objects: number;
  /** Paths of the snapshots pulled that are one name in the folder (it folds case or normalization), each group sorted: a restore there refuses them. */
  collidingNames: string[][];
  ms: number;
}
