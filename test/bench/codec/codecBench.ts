import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { constants, brotliCompressSync, brotliDecompressSync, deflateRawSync, inflateRawSync, zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import { generatedLog } from '../fixtures/generatedLog.js';

// `npm run bench:codec -- [--rounds N]`: the codecs Node 22's zlib offers, on what a history
// stores: each file compressed alone (as a blob is), single thread, in process.
//   source      the checkout's own tracked files (TypeScript, Markdown, JSON), a real source tree
//   typescript  node_modules/typescript/lib: large real JavaScript and declaration files
//   logs        a seeded 16 MiB application log (timestamps, levels, request ids, varied text),
//               plus the machine's own /var/log text files where they are readable
//   binary      already-compressed or machine code: PNGs and the native modules under node_modules
// For each codec: stored bytes / raw bytes, compression and decompression MB/s (medians of the
// rounds). Every decompression is compared with the input, so a codec that loses bytes fails.

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' } } });
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds takes a whole number of at least 1.');

interface Codec {
  name: string;
  compress: (raw: Buffer) => Buffer;
  decompress: (stored: Buffer) => Buffer;
}

const brotli = (quality: number): Codec => ({
  name: `brotli q${quality}`,
  compress: (raw) => brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
  decompress: (stored) => brotliDecompressSync(stored),
});
const zstd = (level: number): Codec => ({
  name: `zstd ${level}`,
  compress: (raw) => zstdCompressSync(raw, { params: { [constants.ZSTD_c_compressionLevel]: level, [constants.ZSTD_c_checksumFlag]: 0 } }),
  decompress: (stored) => zstdDecompressSync(stored),
});
const deflate = (level: number): Codec => ({
  name: `deflate ${level}`,
  compress: (raw) => deflateRawSync(raw, { level }),
  decompress: (stored) => inflateRawSync(stored),
});
const CODECS: Codec[] = [deflate(1), deflate(6), brotli(1), brotli(3), brotli(5), zstd(1), zstd(3), zstd(6), zstd(9)];

function filesUnder(dir: string, keep: (name: string) => boolean): Buffer[] {
  const out: Buffer[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && keep(entry.name)) out.push(readFileSync(path));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

function trackedSources(): Buffer[] {
  const names = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8' })
    .split('\0')
    .filter((n) => /\.(ts|tsx|mjs|md|json|css|html)$/.test(n));
  return names.filter((n) => existsSync(n) && statSync(n).isFile()).map((n) => readFileSync(n));
}

function machineLogs(): Buffer[] {
  return ['/var/log/dpkg.log', '/var/log/apt/term.log', '/var/log/apt/history.log', '/var/log/alternatives.log']
    .filter((p) => existsSync(p))
    .flatMap((p) => {
      try {
        return [readFileSync(p)];
      } catch {
        return [];
      }
    });
}

const corpora: [string, Buffer[]][] = [
  ['source', trackedSources()],
  ['typescript', filesUnder('node_modules/typescript/lib', (n) => n.endsWith('.js') || n.endsWith('.d.ts'))],
  ['logs', [generatedLog(16 * 2 ** 20), ...machineLogs()]],
  ['binary', [...filesUnder('e2e', (n) => n.endsWith('.png')), ...filesUnder('node_modules', (n) => n.endsWith('.node'))]],
];

const medianOf = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mb = (bytes: number, ms: number) => bytes / 2 ** 20 / (ms / 1000);

console.log(
  `bench:codec | node ${process.version} | rounds ${rounds} | load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} at start`,
);
console.log('| corpus | files | raw MiB | codec | stored/raw | compress MB/s | decompress MB/s |');
console.log('|---|---:|---:|---|---:|---:|---:|');
for (const [corpus, files] of corpora) {
  let raw = 0;
  for (const f of files) raw += f.length;
  for (const codec of CODECS) {
    const cTimes: number[] = [];
    const dTimes: number[] = [];
    let stored = 0;
    for (let round = 0; round < rounds; round += 1) {
      stored = 0;
      const outputs: Buffer[] = [];
      let started = performance.now();
      for (const f of files) outputs.push(codec.compress(f));
      cTimes.push(performance.now() - started);
      started = performance.now();
      for (let i = 0; i < outputs.length; i += 1) {
        const back = codec.decompress(outputs[i]!);
        if (!back.equals(files[i]!)) throw new Error(`${codec.name} changed a file of ${corpus}`);
        stored += outputs[i]!.length;
      }
      dTimes.push(performance.now() - started);
    }
    console.log(
      `| ${corpus} | ${files.length} | ${(raw / 2 ** 20).toFixed(1)} | ${codec.name} | ${(stored / raw).toFixed(3)} | ${mb(raw, medianOf(cTimes)).toFixed(0)} | ${mb(raw, medianOf(dTimes)).toFixed(0)} |`,
    );
  }
}
console.log(
  `load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} at end`,
);
