import { describe, expect, it, onTestFinished } from 'vitest';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { writePause } from '../../electron/history/recorder/pauseMark.js';
import { parseOpenLink } from '../../shared/openLink.js';
import { cliJson, finished, runCli, startCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { until } from '../helpers/until.js';

// `hindsight view FOLDER PATH:LINE` as a user runs it: with no viewer running it starts a browser
// host, hands the deep link to the browser (a stub executable here, a real child process that
// writes down its argument) and announces itself in the data folder (0600, removed at its end);
// a second `view` finds it there and opens the link in it; it stops once its last page has been
// closed for the idle span (HINDSIGHT_VIEW_IDLE_MS); with no browser to start the link is printed.

const NO_DISPLAY = { DISPLAY: '', WAYLAND_DISPLAY: '', HINDSIGHT_BROWSER: '' };

interface Shown {
  url: string;
  viewer: 'started' | 'serve' | 'app';
  opened: boolean;
}

async function knownProject(): Promise<{ data: string; root: string; projectId: string }> {
  const data = tempDir('hindsight-data-');
  const root = tempDir();
  writeFileSync(join(root, 'notes.txt'), 'one\ntwo\nthree\n');
  const opened = await cliJson<{ project: { projectId: string } }>(['open', root, '--data-dir', data]);
  return { data, root, projectId: opened.project.projectId };
}

/** A browser stand-in: appends each URL it is given to a file, one a line. */
function stubBrowser(): { exe: string; opened: () => string[] } {
  const dir = tempDir('hindsight-browser-');
  const log = join(dir, 'opened.txt');
  const exe = join(dir, 'browser.sh');
  writeFileSync(exe, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${log}'\n`);
  chmodSync(exe, 0o755);
  return { exe, opened: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []) };
}

function startView(args: string[], env: NodeJS.ProcessEnv) {
  const child = startCli(['view', ...args, '--json', '--renderer-dir', tempDir('hindsight-renderer-')], env);
  onTestFinished(() => void child.kill('SIGKILL'));
  const done = finished(child);
  const lines = createInterface({ input: child.stdout! });
  const first = once(lines, 'line').then(([line]) => JSON.parse(line as string) as Shown);
  return { child, done, first };
}

describe('hindsight view', () => {
  it('starts a viewer, opens the link in the browser, is found by a second view, and stops once its page has closed', async () => {
    const { data, root, projectId } = await knownProject();
    const browser = stubBrowser();
    const env = { ...NO_DISPLAY, HINDSIGHT_BROWSER: browser.exe, HINDSIGHT_VIEW_IDLE_MS: '4000' };
    const view = startView([root, join(root, 'notes.txt:2'), '--data-dir', data], env);
    const shown = await view.first;
    expect(shown.viewer).toBe('started');
    expect(shown.opened).toBe(true);
    const url = new URL(shown.url);
    // Two pages, at once: the idle span runs from the start until a page connects.
    const pageA = new WebSocket(`ws://${url.host}/ws?token=${url.searchParams.get('token')}`);
    const pageB = new WebSocket(`ws://${url.host}/ws?token=${url.searchParams.get('token')}`);
    await Promise.all([once(pageA, 'open'), once(pageB, 'open')]);
    expect(url.hash).toBe(`#project=${projectId}&path=notes.txt&line=2`);
    expect(url.searchParams.get('token')).toMatch(/^[\w-]{43}$/);
    await until(() => browser.opened().length === 1);
    expect(browser.opened()).toEqual([shown.url]);

    const record = join(data, 'viewer.json');
    expect(statSync(record).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(record, 'utf8'))).toMatchObject({ kind: 'serve', pid: view.child.pid, url: shown.url.replace(/#.*/, '') });

    // A second view opens its link in the running viewer and ends at once.
    const again = await runCli(['view', root, 'notes.txt', '--json', '--data-dir', data], env, { cwd: root });
    expect(again.code).toBe(0);
    const second = JSON.parse(again.stdout.toString()) as Shown;
    expect(second).toEqual({ url: `${shown.url.replace(/#.*/, '')}#project=${projectId}&path=notes.txt`, viewer: 'serve', opened: true });
    await until(() => browser.opened().length === 2);

    // Closing one page leaves the other: the countdown starts only when the last has gone.
    pageA.close();
    await once(pageA, 'close');
    pageB.close();
    const result = await view.done;
    expect(result.code).toBe(0);
    const closedLines = result.stderr.split('\n').filter((line) => line.startsWith('The viewer page was closed'));
    expect(closedLines).toEqual(['The viewer page was closed: Hindsight stops in 4 s unless one opens.']);
    expect(result.stderr).toContain('No viewer page for 4 s: Hindsight stopped.');
    expect(existsSync(record)).toBe(false);
  });

  it('prints the link where no browser can be started', async () => {
    const { data, root, projectId } = await knownProject();
    const rendererDir = tempDir('hindsight-renderer-');
    writeFileSync(join(rendererDir, 'index.html'), '<html><head></head><body>viewer</body></html>');
    const child = startCli(['view', root, join(root, 'notes.txt:3'), '--data-dir', data, '--renderer-dir', rendererDir], NO_DISPLAY);
    onTestFinished(() => void child.kill('SIGKILL'));
    const done = finished(child);
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const first = (await lines.next()).value as string;
    const link = (await lines.next()).value as string;
    expect(first).toContain('No browser could be opened here');
    expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/\\?token=[\\w-]{43}#project=${projectId}&path=notes\\.txt&line=3$`));
    expect((await fetch(link)).status).toBe(200);
    child.kill('SIGTERM');
    expect((await done).code).toBe(0);
  });

  it('keeps a paused recording paused in the viewer it starts', async () => {
    const { data, root } = await knownProject();
    writePause(data, null); // paused until resumed, by the app's tray or another serve's page
    const view = startView([root, '--data-dir', data], NO_DISPLAY);
    const url = new URL((await view.first).url);
    const page = new WebSocket(`ws://${url.host}/ws?token=${url.searchParams.get('token')}`);
    await once(page, 'open');
    const answer = once(page, 'message');
    page.send(JSON.stringify({ kind: 'call', id: 1, call: 'recordingStatus', args: {} }));
    const [data1] = (await answer) as [Buffer];
    expect(JSON.parse(String(data1)).result).toEqual({ ok: true, value: { recording: false, resumesAt: null, projects: 0 } });
    page.close();
    view.child.kill('SIGTERM');
    const result = await view.done;
    expect(result.code, result.stderr).toBe(0);
  });

  it('hands the running app a hindsight://open link', async () => {
    const { data, root } = await knownProject();
    const browser = stubBrowser();
    // The app's history process, as it announces itself: a live pid (this test's own).
    writeFileSync(join(data, 'viewer.json'), JSON.stringify({ kind: 'app', pid: process.pid }), { mode: 0o600 });
    const shown = await runCli(['view', root, join(root, 'notes.txt:2'), '--json', '--data-dir', data], { ...NO_DISPLAY, HINDSIGHT_BROWSER: browser.exe });
    expect(shown.code, shown.stderr).toBe(0);
    const link = `hindsight://open?path=${encodeURIComponent(join(realpathSync(root), 'notes.txt'))}&line=2`;
    expect(JSON.parse(shown.stdout.toString())).toEqual({ url: link, viewer: 'app', opened: true });
    await until(() => browser.opened().length === 1);
    expect(browser.opened()).toEqual([link]);
    expect(parseOpenLink(link)).toEqual({ path: join(realpathSync(root), 'notes.txt'), line: 2 });
  });

  it('takes a record left by a viewer that died as no viewer', async () => {
    const { data, root } = await knownProject();
    const dead = spawn(process.execPath, ['-e', '']);
    await once(dead, 'exit');
    writeFileSync(join(data, 'viewer.json'), JSON.stringify({ kind: 'serve', pid: dead.pid, url: 'http://127.0.0.1:9/?token=x' }), { mode: 0o600 });
    const view = startView([root, '--data-dir', data], NO_DISPLAY);
    const shown = await view.first;
    expect(shown.viewer).toBe('started');
    expect(shown.url).not.toContain(':9/');
    view.child.kill('SIGTERM');
    expect((await view.done).code).toBe(0);
  });

  it('refuses a folder with no history, and a line that is not a number from 1', async () => {
    const { data, root } = await knownProject();
    const unknown = await runCli(['view', tempDir(), '--data-dir', data], NO_DISPLAY);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('has no history yet');
    expect(existsSync(join(data, 'viewer.json'))).toBe(false);
    const zero = await runCli(['view', root, join(root, 'notes.txt:0'), '--data-dir', data], NO_DISPLAY);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('whole number from 1');
  });
});
