import { useCallback, useEffect, useMemo, useState } from 'react';
import uPlot from 'uplot';
import type { SpaceHolder, StoreGrowth } from '../../../shared/contract.js';
import { call } from '../../api/hindsight.js';
import { UplotChart, type ChartColors } from '../../components/UplotChart.js';
import { formatBytes } from '../../format/bytes.js';
import { formatPeriod } from '../../format/time.js';
import { useApp } from '../../stores/appStore.js';
import { utcOffsetMinutes } from '../scrubber/useChangeDensity.js';
import { growthSeries, holderSeries } from './chartData.js';

// The Store view's pictures: the history's size over time (bytes on disk against the files'
// bytes, summed from the first copy: the storeGrowth call, counted in SQL) and what holds the space
// (the files whose versions hold the most bytes: the retention status the table below shows).

export function StoreCharts() {
  const growth = useStoreGrowth();
  const holders = useApp((s) => s.retention?.spaceHolders ?? null);
  return (
    <section className="card" aria-labelledby="charts-title">
      <h2 id="charts-title" className="card-title">
        Space used
      </h2>
      <div className="store-charts">
        {growth && <GrowthChart growth={growth} />}
        {holders && holders.length > 0 && <HoldersChart holders={holders} />}
      </div>
    </section>
  );
}

/** The store's growth, asked again when the Store tab's statistics are (a recorded snapshot reloads them). */
function useStoreGrowth(): StoreGrowth | null {
  const projectId = useApp((s) => s.currentProjectId);
  const stats = useApp((s) => s.stats);
  const [growth, setGrowth] = useState<StoreGrowth | null>(null);
  useEffect(() => {
    if (!projectId) return;
    let current = true;
    call('storeGrowth', { projectId, utcOffsetMinutes: utcOffsetMinutes() }).then(
      (answer) => current && setGrowth(answer),
      () => current && setGrowth(null),
    );
    return () => {
      current = false;
    };
  }, [projectId, stats]);
  return growth;
}

function axes(colors: ChartColors, x: uPlot.Axis): uPlot.Axis[] {
  const common = { stroke: colors.text, grid: { stroke: colors.grid, width: 1 }, ticks: { stroke: colors.grid, width: 1 } };
  return [
    { ...common, ...x },
    { ...common, size: 72, values: (_u, splits) => splits.map((v) => formatBytes(v)) },
  ];
}

function GrowthChart({ growth }: { growth: StoreGrowth }) {
  const data = useMemo(() => growthSeries(growth, Date.now()), [growth]);
  const last = growth.points.at(-1);
  const label = last
    ? `History size over time: ${formatBytes(last.storedBytes)} stored, ${formatBytes(last.rawBytes)} as the files are`
    : 'History size over time: nothing stored yet';
  const options = useCallback(
    (colors: ChartColors) => ({
      ms: 1 as const,
      scales: { x: { time: true }, y: { range: (_u: uPlot, _min: number, max: number): uPlot.Range.MinMax => [0, Math.max(1, max) * 1.05] } },
      axes: axes(colors, {}),
      cursor: { drag: { x: false, y: false } },
      series: [
        { label: 'Time', value: (_u: uPlot, v: number | null) => (v === null ? '—' : formatPeriod(v, growth.bucket)) },
        { label: 'Stored', stroke: colors.accent, width: 2, fill: `${colors.accent}22`, value: bytesValue },
        { label: 'As the files are', stroke: colors.second, width: 2, dash: [6, 4], value: bytesValue },
      ],
    }),
    [growth.bucket],
  );
  return (
    <figure className="chart">
      <figcaption className="card-subtitle">History size over time</figcaption>
      <UplotChart label={label} data={data} options={options} />
    </figure>
  );
}

function HoldersChart({ holders }: { holders: SpaceHolder[] }) {
  const data = useMemo(() => holderSeries(holders), [holders]);
  const top = holders[0];
  const label = top ? `What holds the space: ${top.path} holds the most, ${formatBytes(top.bytes)} in ${top.versions} versions` : 'What holds the space';
  const options = useCallback(
    (colors: ChartColors) => ({
      scales: {
        x: { time: false, range: (): uPlot.Range.MinMax => [-0.5, holders.length - 0.5] },
        y: { range: (_u: uPlot, _min: number, max: number): uPlot.Range.MinMax => [0, Math.max(1, max) * 1.05] },
      },
      axes: axes(colors, {
        splits: () => holders.map((_h, i) => i),
        values: (_u: uPlot, splits: number[]) => splits.map((i) => shortName(holders[i]?.path ?? '')),
        rotate: holders.length > 5 ? -30 : 0,
        size: holders.length > 5 ? 64 : 36,
      }),
      cursor: { drag: { x: false, y: false } },
      series: [
        { label: 'File', value: (_u: uPlot, i: number | null) => (i === null ? '—' : (holders[i]?.path ?? '—')) },
        { label: 'Stored by its versions', stroke: colors.accent, fill: colors.accent, value: bytesValue, paths: barsPath, points: { show: false } },
      ],
    }),
    [holders],
  );
  return (
    <figure className="chart">
      <figcaption className="card-subtitle">What holds the space</figcaption>
      <UplotChart label={label} data={data} options={options} />
    </figure>
  );
}

const barsPath = uPlot.paths.bars!({ size: [0.6, 64] });

function bytesValue(_u: uPlot, v: number | null): string {
  return v === null ? '—' : formatBytes(v);
}

/** A path's last name, shortened for an axis label. */
function shortName(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.length > 18 ? `${name.slice(0, 17)}…` : name;
}
