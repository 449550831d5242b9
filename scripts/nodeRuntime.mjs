// The Node.js Hindsight runs on, for the app, the CLI, the tests and the browser viewer alike: 22.19
// or later. The store needs zstd (node:zlib has it from 22.15) with the `dictionary` option, which
// 22.15-22.18 accept and silently ignore, so a frame written against a dictionary on 22.19 could not
// be read there. The Node inside Electron 45 is 24, above the floor. Plain JavaScript that any Node can load, so an older one
// gets one line saying what to do instead of a stack trace from whatever it trips on first.

/** The oldest supported Node.js, as [major, minor]. package.json's `engines` says the same. */
export const NODE_MINIMUM = [22, 19];

/**
 * The one line that refuses `found` (a `process.versions.node` string) for `what`, or null when
 * it is new enough.
 * @param {string} found
 * @param {string} what the command being refused, e.g. "hindsight" or "npm test"
 * @returns {string | null}
 */
export function runtimeRefusal(found, what) {
  const [major = 0, minor = 0] = found.split('.').map(Number);
  const [needMajor, needMinor] = NODE_MINIMUM;
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return null;
  return `${what}: this is Node.js ${found}; Hindsight needs Node.js ${NODE_MINIMUM.join('.')} or later (install the 22 LTS from https://nodejs.org/ or with a version manager: nvm install 22)`;
}

/**
 * Exits with status 1 after the refusal line when this process's Node is too old.
 * @param {string} what
 */
export function refuseUnsupportedNode(what) {
  const line = runtimeRefusal(process.versions.node, what);
  if (line === null) return;
  process.stderr.write(`${line}\n`);
  process.exit(1);
}
