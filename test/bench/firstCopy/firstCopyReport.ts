import { comparePaired, median, minMax } from '../stats.js';
import type { CacheState } from '../pageCache.js';
import type { MachineInfo } from './machineInfo.js';
import type { Sample, Scenario } from './scenarios.js';

// The markdown report of one bench:first-copy run: the machine, one table per scenario (median,
// min-max, CPU, peak RSS, ratio to the baseline with a paired 95% CI over rounds), and the targets
// of issue 3 with the measured ratio and whether each is met.

export type Results = Map<string, Map<string, Sample[]>>;

const s = (ms: number) => (ms / 1000).toFixed(2);
const mib = (kb: number) => (Number.isFinite(kb) ? (kb / 1024).toFixed(0) : 'n/a');
const cell = (text: string) => text.replace(/\|/g, '\\|');
const x = (r: number) => (Number.isFinite(r) ? `${r.toFixed(2)}x` : 'n/a');

export function renderReport(
  scenarios: readonly Scenario[],
  results: Results,
  meta: { machine: MachineInfo; cache: CacheState; rounds: number; skipped: string[]; date: string; loadAtStart: number },
): string {
  const m = meta.machine;
  const lines = [
    `Run ${meta.date}, commit ${m.commit}: ${meta.rounds} rounds, entries alternating (order rotated each round), page cache ${meta.cache === 'cold' ? 'cold (sync; echo 3 > /proc/sys/vm/drop_caches before every run)' : 'warm (drop_caches not writable)'}.`,
    `Machine: ${m.cores} cores (${m.cpu}), ${m.memoryGiB} GiB, kernel ${m.kernel}, disk ${m.disk}, Node ${m.node}; load average (1 min) at start ${meta.loadAtStart}, now ${m.load1}.`,
    meta.skipped.length ? `Skipped: ${meta.skipped.join(', ')}.` : 'Skipped: none.',
    '',
  ];
  for (const scenario of scenarios) {
    const rows = results.get(scenario.id)!;
    const base = rows.get(scenario.baseline) ?? [];
    lines.push(`### ${scenario.title}`, '');
    lines.push(`| entry | median s | min-max s | CPU s (median) | peak RSS MiB (median) | x ${scenario.baseline} (95% CI) |`);
    lines.push('| --- | ---: | ---: | ---: | ---: | ---: |');
    for (const [name, samples] of rows) {
      const wall = samples.map((v) => v.wallMs);
      const range = minMax(wall);
      const cmp = comparePaired(
        base.map((v) => v.wallMs),
        wall,
      );
      const ratio = name === scenario.baseline ? '1.00x' : `${x(cmp.ratio)} (${x(cmp.low)}-${x(cmp.high)})`;
      lines.push(
        `| ${cell(name)} | ${s(median(wall))} | ${s(range.min)}-${s(range.max)} | ${s(median(samples.map((v) => v.cpuMs)))} | ${mib(median(samples.map((v) => v.maxRssKb)))} | ${ratio} |`,
      );
    }
    const drivers = [...rows].filter(([, samples]) => samples[0]?.driver);
    if (drivers.length) {
      lines.push(
        '',
        '| in-process run | median ready s | all done s | ready / all done | side stat p99 ms (median, worst) | side stat max ms (median, worst) | loop lag max ms (worst) |',
      );
      lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
      for (const [name, samples] of drivers) {
        const d = samples.map((v) => v.driver!);
        const p99 = d.map((v) => v.stat.p99Ms);
        const max = d.map((v) => v.stat.maxMs);
        lines.push(
          `| ${cell(name)} | ${s(median(d.map((v) => v.medianReadyMs)))} | ${s(median(d.map((v) => v.allDoneMs)))} | ${median(d.map((v) => v.medianReadyMs / v.allDoneMs)).toFixed(2)} | ${median(p99).toFixed(1)}, ${Math.max(...p99).toFixed(1)} | ${median(max).toFixed(1)}, ${Math.max(...max).toFixed(1)} | ${Math.max(...d.map((v) => v.stat.maxLateMs)).toFixed(1)} |`,
        );
      }
    }
    lines.push('');
  }
  lines.push(...renderTargets(scenarios, results));
  return lines.join('\n');
}

function renderTargets(scenarios: readonly Scenario[], results: Results): string[] {
  const lines = ['### Targets', '', '| target | measured | met |', '| --- | --- | --- |'];
  const ratio = (id: string, name: string, against: string) => {
    const rows = results.get(id);
    const a = rows?.get(against);
    const b = rows?.get(name);
    if (!a || !b) return NaN;
    return comparePaired(
      a.map((v) => v.wallMs),
      b.map((v) => v.wallMs),
    ).ratio;
  };
  const row = (target: string, value: number, ok: boolean, shown = x(value)) =>
    lines.push(`| ${target} | ${Number.isFinite(value) ? shown : 'not run'} | ${Number.isFinite(value) ? (ok ? 'yes' : 'NO') : '-'} |`);
  for (const id of ['a', 'd', 'f'] as const) {
    if (!scenarios.some((sc) => sc.id === id)) continue;
    const cp = ratio(id, 'hindsight', 'cp -a');
    row(`(${id}) hindsight <= 1.0x cp -a`, cp, cp <= 1.0);
    for (const other of ['restic backup', 'git add -A']) {
      const r = ratio(id, other, 'hindsight');
      row(`(${id}) ${other} >= 1.5x hindsight`, r, r >= 1.5);
    }
  }
  const b = results.get('b');
  if (b) {
    const d = (b.get('hindsight, 11 at once') ?? []).map((v) => v.driver!);
    const readyShare = median(d.map((v) => v.medianReadyMs / v.allDoneMs));
    row('(b) median ready <= 0.6x all done', readyShare, readyShare <= 0.6);
    const seq = b.get('11 x cp -a, one after another') ?? [];
    const allDone = comparePaired(
      seq.map((v) => v.wallMs),
      d.map((v) => v.allDoneMs),
    ).ratio;
    row('(b) all done (in-process) <= 1.1x 11 sequential cp -a', allDone, allDone <= 1.1);
  }
  const drivers = [...results.values()].flatMap((rows) => [...rows.values()].flat()).flatMap((v) => (v.driver ? [v.driver] : []));
  const stats = drivers.filter((d) => d.projects > 0).map((d) => d.stat);
  if (stats.length) {
    const p99 = Math.max(...stats.map((v) => v.p99Ms));
    const max = Math.max(...stats.map((v) => v.maxMs));
    row('(c) side stat p99 <= 5 ms (worst run)', p99, p99 <= 5, `${p99.toFixed(1)} ms`);
    row('(c) side stat max <= 20 ms (worst run)', max, max <= 20, `${max.toFixed(1)} ms`);
  }
  const floor = drivers.filter((d) => d.projects === 0).map((d) => d.stat);
  if (floor.length) {
    const p99 = Math.max(...floor.map((v) => v.p99Ms));
    const max = Math.max(...floor.map((v) => v.maxMs));
    lines.push(
      `| (c) control: the same side stat with no copy running (worst run) | p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms | (the machine's floor) |`,
    );
  }
  const inProcess = (id: string, name: string) => {
    const rows = results.get(id);
    const cp = rows?.get(id === 'g' ? 'git status' : 'cp -a');
    const d = rows?.get(name);
    if (!cp || !d) return NaN;
    return comparePaired(
      cp.map((v) => v.wallMs),
      d.map((v) => v.driver!.allDoneMs),
    ).ratio;
  };
  for (const id of ['a', 'f'] as const) {
    const r = inProcess(id, 'hindsight in-process + side stat');
    if (Number.isFinite(r)) row(`(${id}) in-process first copy <= 0.7x cp -a`, r, r <= 0.7);
  }
  const g = results.get('g');
  if (g) {
    const r = inProcess('g', 'hindsight reopen in-process + side stat');
    row('(g) reopen in-process <= 2x git status', r, r <= 2);
    const whole = median((g.get('hindsight open (reopen)') ?? []).map((v) => v.wallMs)) / 1000;
    row('(g) reopen, whole CLI process <= 0.25 s', whole, whole <= 0.25, `${whole.toFixed(2)} s`);
  }
  const e = results.get('e')?.get('hindsight');
  if (e) {
    const rss = Math.max(...e.map((v) => v.maxRssKb)) / 1024;
    row('(e) peak RSS <= 150 MiB (worst run)', rss, rss <= 150, `${rss.toFixed(0)} MiB`);
  }
  const h = results.get('h')?.get('hindsight');
  if (h) {
    const rss = Math.max(...h.map((v) => v.maxRssKb)) / 1024;
    row('(h) peak RSS of the whole CLI <= 100 MiB (worst run)', rss, rss <= 100, `${rss.toFixed(0)} MiB`);
  }
  return lines;
}
