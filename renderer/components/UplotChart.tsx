import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import { useDarkScheme } from './shadowMount.js';
import { themeColors } from './themeColors.js';

// One uPlot chart in a frame that sizes it: made again when its data or the theme changes (its
// colors are the design tokens, read off the frame), resized with the frame. uPlot styles its
// elements through the CSSOM (never a style attribute or a <style> element), which the strict CSP
// allows; its stylesheet is imported with the app's (main.tsx). Its canvas is named for assistive
// technology; the legend under it names the series in words.

export const CHART_COLORS = { text: '--text-muted', grid: '--border', accent: '--accent', second: '--changed', surface: '--surface' };
export type ChartColors = Record<keyof typeof CHART_COLORS, string>;

interface Props {
  /** The canvas's accessible name (what it shows, with its figures). */
  label: string;
  data: uPlot.AlignedData;
  options(colors: ChartColors, size: { width: number; height: number }): Omit<uPlot.Options, 'width' | 'height'>;
}

export function UplotChart({ label, data, options }: Props) {
  const frame = useRef<HTMLDivElement>(null);
  const dark = useDarkScheme();
  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const size = () => ({ width: element.clientWidth, height: element.clientHeight });
    const colors = themeColors(element, CHART_COLORS);
    const chart = new uPlot({ ...options(colors, size()), ...chartSize(element) }, data, element);
    const canvas = chart.root.querySelector('canvas');
    canvas?.setAttribute('role', 'img');
    canvas?.setAttribute('aria-label', label);
    const observer = new ResizeObserver(() => chart.setSize(chartSize(element)));
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [data, dark, label, options]);
  return <div ref={frame} className="chart-frame" />;
}

/** The chart's size in its frame, leaving room for the legend below the plot. */
function chartSize(element: HTMLElement): { width: number; height: number } {
  return { width: Math.max(200, element.clientWidth), height: Math.max(120, element.clientHeight - 48) };
}
