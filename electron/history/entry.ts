import type { MessagePortMain } from 'electron';
import { parseArgs } from 'node:util';
import { resolveDataDir } from './dataDir.js';
import { createDispatcher } from './dispatcher/dispatcher.js';
import { servePort } from './dispatcher/servePort.js';
import { HistoryEngine } from './historyEngine.js';
import { sharedCopyPool } from './store/copyPool.js';
import { setWorkerScriptsDir } from './workerScripts.js';
import { RecordingSwitch } from './recorder/recordingSwitch.js';
import { claimToRecord } from './recorder/recorderEndpoint.js';
import { announceViewer } from './viewerDiscovery.js';

// The history process, started by main with utilityProcess.fork. Main sends one MessagePort per
// window (and one for itself); each is served by the same dispatcher, so every window shares one
// engine, one set of open stores and one copy-slot limit. The only file under electron/history/
// that may name electron (and only its types: the utility process gets parentPort on `process`).

// The workers (copy, prune planner) are built beside this entry (electron.vite.config.ts).
setWorkerScriptsDir(new URL('./', import.meta.url));
const { values } = parseArgs({ options: { 'data-dir': { type: 'string' } }, strict: false });
const dataDir = resolveDataDir(typeof values['data-dir'] === 'string' ? values['data-dir'] : undefined);
const engine = new HistoryEngine(dataDir);
// Every known project is recorded from the start, not only the ones a window shows (the user may
// pause it from the tray); what it finds (a folder gone, a watch refused) reaches the windows as events.
const switched = new RecordingSwitch(engine, { pauseMark: engine.dataDir });
// One recorder per data folder: beside a `watch --all` (or a serve) already recording, the app shows and that one records.
const claim = await claimToRecord(engine.dataDir, { command: 'app', flush: (projectId) => switched.flushFor(projectId) }, (line) =>
  process.stderr.write(`hindsight: ${line}\n`),
);
const recording = claim.record ? switched : undefined;
const dispatcher = createDispatcher(engine, { sweep: true, recording });
// Projects with a remote are pushed in the background after their change groups (AWS credentials
// of the history process's environment or profile).
engine.startAutoPush();
void recording?.start();
// `hindsight view` finds the app here and hands it a hindsight:// link.
const forgetViewer = announceViewer(engine.dataDir, { kind: 'app', pid: process.pid });

process.parentPort.on('message', (event) => {
  for (const port of event.ports as MessagePortMain[]) {
    servePort(dispatcher, port, (message) => (message as Electron.MessageEvent).data);
  }
});

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  forgetViewer();
  await recording?.stop();
  await claim.close();
  await dispatcher.close();
  engine.close();
  await sharedCopyPool().close();
  process.exit(0);
}
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
