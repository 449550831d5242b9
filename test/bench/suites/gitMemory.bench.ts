import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runGit } from '../../../electron/history/git/runGit.js';
import type { BenchCase, BenchSuite } from '../benchSuite.js';
import { median } from '../stats.js';

// Peak resident memory of one budgeted git call: `git cat-file blob` of a blob of listing-like
// text (20, 31 and 45 MB), read three ways, each in a fresh child process that resets its peak
// (/proc/self/clear_refs) and reports how far VmHWM rose above the baseline:
//   doubling  the buffer this replaced: grows to twice its capacity plus the write by copying,
//             then copies the output once more to return it ("before")
//   concat    Node's idiom (execFile's): keep every chunk the pipe delivers, Buffer.concat at the end
//   chunked-pipe  runGit over a pipe: Node reads into a fresh buffer per read, copied into the chunks
//   chunked   runGit as it runs (a socket read straight into the chunks), joined once ("after")
// Figures: peakMB (VmHWM rise, MB) and ratio (rise / output size). The rig builds this file into
// out/bench/suites/gitMemory.bench.js; the same file is the child (`--probe MODE CWD OID SIZE`),
// and `--table ROUNDS` prints the alternating-rounds table docs/PERFORMANCE.md quotes.

const SIZES = [20_000_064, 31_000_032, 45_000_060];
const MODES = ['doubling', 'concat', 'chunked-pipe', 'chunked'] as const;
type Mode = (typeof MODES)[number];
const ALLOWANCE = 64 * 1024 * 1024;

// ---- the child -------------------------------------------------------------------------------

function vmHwmKb(): number {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]);
}

function readDoubling(cwd: string, oid: string): Promise<Buffer> {
  return readWith(cwd, oid, () => {
    let buf = Buffer.alloc(0);
    let n = 0;
    return {
      write(chunk: Buffer) {
        if (n + chunk.length > buf.length) {
          const next = Buffer.allocUnsafeSlow(2 * buf.length + chunk.length);
          buf.copy(next, 0, 0, n);
          buf = next;
        }
        chunk.copy(buf, n);
        n += chunk.length;
      },
      end: () => Buffer.from(buf.subarray(0, n)),
    };
  });
}

function readConcat(cwd: string, oid: string): Promise<Buffer> {
  return readWith(cwd, oid, () => {
    const chunks: Buffer[] = [];
    return { write: (chunk: Buffer) => void chunks.push(chunk), end: () => Buffer.concat(chunks) };
  });
}

function readWith(cwd: string, oid: string, make: () => { write(chunk: Buffer): void; end(): Buffer }): Promise<Buffer> {
  const sink = make();
  const child = spawn('git', ['cat-file', 'blob', oid], { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
  child.stdout.on('data', (chunk: Buffer) => sink.write(chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(sink.end()) : reject(new Error(`git exited ${code}`))));
  });
}

async function probe(mode: Mode, cwd: string, oid: string, size: number): Promise<void> {
  const read = (m: Mode) =>
    m === 'chunked' || m === 'chunked-pipe'
      ? runGit(['cat-file', 'blob', oid], { cwd, allowance: ALLOWANCE, transport: m === 'chunked' ? 'socket' : 'pipe' }).then((r) => r.stdout)
      : m === 'doubling'
        ? readDoubling(cwd, oid)
        : readConcat(cwd, oid);
  await runGit(['rev-parse', 'HEAD'], { cwd, okCodes: [0, 128] }); // load the spawn path first
  (globalThis as { gc?: () => void }).gc?.();
  writeFileSync('/proc/self/clear_refs', '5'); // the peak starts again from what is resident now
  const before = vmHwmKb();
  const output = await read(mode);
  const rise = (vmHwmKb() - before) * 1024;
  if (output.length !== size) throw new Error(`read ${output.length} bytes, expected ${size}`);
  process.stdout.write(`${JSON.stringify({ mode, size, rise })}\n`);
}

// ---- the parent ------------------------------------------------------------------------------

function listingText(size: number): Buffer {
  const text = Buffer.alloc(size);
  let at = 0;
  for (let i = 0; at < size; i++) {
    const line = `100644 blob ${((i * 2654435761) >>> 0).toString(16).padStart(8, '0').repeat(5)}\tsrc/module-${String(i % 997).padStart(4, '0')}/file-${String(i).padStart(7, '0')}.ts\n`;
    at += text.write(line, at);
  }
  return text;
}

interface Fixture {
  repo: string;
  oids: Map<number, string>;
}

function makeFixture(): Fixture {
  const repo = mkdtempSync(join(tmpdir(), 'hindsight-gitmem-'));
  execFileSync('git', ['init', '-q', repo]);
  const oids = new Map<number, string>();
  for (const size of SIZES) {
    const oid = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: repo, input: listingText(size) })
      .toString()
      .trim();
    oids.set(size, oid);
  }
  return { repo, oids };
}

function runProbe(fixture: Fixture, mode: Mode, size: number): { rise: number } {
  const self = fileURLToPath(import.meta.url);
  const result = spawnSync(process.execPath, ['--expose-gc', self, '--probe', mode, fixture.repo, fixture.oids.get(size)!, String(size)], {
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`probe ${mode} ${size} failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as { rise: number };
}

function printTable(rounds: number): void {
  const fixture = makeFixture();
  try {
    const rises = new Map<string, number[]>();
    for (let round = 0; round < rounds; round++) {
      for (const size of SIZES) {
        // Alternate the order each round, so no mode always runs first.
        for (const mode of round % 2 === 0 ? MODES : [...MODES].reverse()) {
          const key = `${mode} ${size}`;
          rises.set(key, [...(rises.get(key) ?? []), runProbe(fixture, mode, size).rise]);
        }
      }
    }
    const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
    process.stdout.write(`| Output | ${MODES.join(' | ')} |\n|---|${MODES.map(() => '---').join('|')}|\n`);
    for (const size of SIZES) {
      const cells = MODES.map((mode) => {
        const values = rises.get(`${mode} ${size}`)!;
        const m = median(values);
        return `${mb(m)} MB, ${(m / size).toFixed(2)}x (${mb(Math.min(...values))} to ${mb(Math.max(...values))})`;
      });
      process.stdout.write(`| ${size.toLocaleString('en-US')} bytes | ${cells.join(' | ')} |\n`);
    }
  } finally {
    rmSync(fixture.repo, { recursive: true, force: true });
  }
}

const suite: BenchSuite = {
  name: 'gitMemory',
  cases: () => {
    let fixture: Fixture | undefined;
    const cases: BenchCase[] = [];
    for (const size of SIZES) {
      for (const mode of MODES) {
        cases.push({
          name: `${mode}-${Math.round(size / 1e6)}MB`,
          iterations: 5,
          setup: () => {
            if (fixture) return;
            const made = (fixture = makeFixture());
            process.once('exit', () => rmSync(made.repo, { recursive: true, force: true }));
          },
          run: () => {
            const { rise } = runProbe(fixture!, mode, size);
            return { peakMB: rise / 1e6, ratio: rise / size };
          },
        });
      }
    }
    return cases;
  },
};
export default suite;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [flag, ...rest] = process.argv.slice(2);
  if (flag === '--probe') await probe(rest[0] as Mode, rest[1]!, rest[2]!, Number(rest[3]));
  else if (flag === '--table') printTable(Number(rest[0] ?? 7));
}
