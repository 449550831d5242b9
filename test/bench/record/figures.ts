// One measured figure of the record benchmark, with the target and whether it was met
// (null: a figure reported for context, with no target of its own).

export interface Figure {
  case: string;
  figure: string;
  value: string;
  target: string;
  met: boolean | null;
}

export function figureTable(figures: readonly Figure[]): string {
  const rows = figures.map((f) => `| ${f.case} | ${f.figure} | ${f.value} | ${f.target} | ${f.met === null ? '' : f.met ? 'met' : 'NOT met'} |`);
  return ['| case | figure | value | target | |', '|---|---|---:|---|---|', ...rows].join('\n');
}

export const mib = (kb: number): number => Math.round((kb / 1024) * 10) / 10;
export const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
