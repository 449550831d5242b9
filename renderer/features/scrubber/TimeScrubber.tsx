import { useEffect, useMemo, useRef, useState } from 'react';
import type { ChangeDensity, DensityBucket } from '../../../shared/contract.js';
import { useDarkScheme } from '../../components/shadowMount.js';
import { themeColors } from '../../components/themeColors.js';
import { barLength, bucketAt, bucketBand, bucketOf, bucketText, keyMove, stripSpan, type StripSpan } from './scrubberModel.js';

// A strip beside a list (the Timeline, a file's versions) of how much changed per hour or day over
// the whole history, Time Machine's edge timeline: a click or a drag jumps the list to that time;
// focused, the arrow keys move a cursor by one bucket holding a change (Page by ten, Home the
// oldest, End the newest) and Enter jumps. It is a slider to assistive technology, its value the
// cursor's hour or day in words.

interface Props {
  density: ChangeDensity | null;
  /** The accessible name: "Changes over time". */
  label: string;
  scope: 'history' | 'file';
  /** When the list's selected row was recorded: the cursor starts at its bucket. */
  selectedAt: number | null;
  onJump(bucket: DensityBucket): void;
}

const COLORS = { bar: '--accent', cursor: '--text', track: '--surface-sunken', marker: '--changed' };

export function TimeScrubber({ density, label, scope, selectedAt, onJump }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const dark = useDarkScheme();
  const [size, setSize] = useState({ width: 0, height: 0 });
  const buckets = useMemo(() => density?.buckets ?? [], [density]);
  const [cursor, setCursor] = useState(-1);
  const dragging = useRef(false);

  // The cursor follows the list's selection (a click in the list, a jump), and stays on the strip otherwise.
  useEffect(() => {
    if (selectedAt !== null) setCursor(bucketOf(buckets, selectedAt));
    else setCursor(buckets.length - 1);
  }, [selectedAt, buckets]);

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setSize({ width: element.clientWidth, height: element.clientHeight }));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const element = canvas.current;
    if (element && density) draw(element, density, size, cursor);
  }, [density, size, cursor, dark]);

  const span = density ? stripSpan(density) : null;
  const at = cursor >= 0 ? buckets[cursor] : undefined;

  function pick(event: React.PointerEvent<HTMLCanvasElement>): void {
    if (!density || !span) return;
    const rect = event.currentTarget.getBoundingClientRect();
    const index = bucketAt(buckets, density.bucketMs, span, event.clientY - rect.top, rect.height);
    if (index < 0) return;
    setCursor(index);
    if (index !== cursor || !dragging.current) onJump(buckets[index]!);
  }

  function onKeyDown(event: React.KeyboardEvent<HTMLCanvasElement>): void {
    if (event.key === 'Enter' && at) {
      event.preventDefault();
      onJump(at);
      return;
    }
    const next = keyMove(event.key, cursor < 0 ? buckets.length - 1 : cursor, buckets.length);
    if (next === null) return;
    event.preventDefault();
    setCursor(next);
  }

  return (
    <div className="time-scrubber">
      <canvas
        ref={canvas}
        role="slider"
        tabIndex={0}
        aria-label={label}
        aria-orientation="vertical"
        aria-valuemin={0}
        aria-valuemax={Math.max(0, buckets.length - 1)}
        aria-valuenow={Math.max(0, cursor)}
        aria-valuetext={at && density ? bucketText(at, density.bucket, scope) : 'Nothing recorded yet'}
        aria-keyshortcuts="ArrowUp ArrowDown Home End Enter"
        title={at && density ? `${bucketText(at, density.bucket, scope)}. Click or drag to jump; arrows and Enter too.` : label}
        onKeyDown={onKeyDown}
        onPointerDown={(event) => {
          event.currentTarget.setPointerCapture(event.pointerId);
          dragging.current = false;
          pick(event);
          dragging.current = true;
        }}
        onPointerMove={(event) => {
          if (dragging.current && event.currentTarget.hasPointerCapture(event.pointerId)) pick(event);
        }}
        onPointerUp={() => {
          dragging.current = false;
        }}
      />
    </div>
  );
}

/** The strip: a bar per bucket from the right edge (the list's side), the cursor's bucket marked across. */
function draw(element: HTMLCanvasElement, density: ChangeDensity, size: { width: number; height: number }, cursor: number): void {
  const ratio = window.devicePixelRatio || 1;
  element.width = Math.round(size.width * ratio);
  element.height = Math.round(size.height * ratio);
  const context = element.getContext('2d');
  const span: StripSpan | null = stripSpan(density);
  if (!context || !span || size.height === 0) return;
  const colors = themeColors(element, COLORS);
  context.scale(ratio, ratio);
  context.fillStyle = colors.track;
  context.fillRect(0, 0, size.width, size.height);
  const value = (b: DensityBucket) => (density.path === null ? Math.max(b.files, b.snapshots) : b.snapshots);
  let max = 0;
  for (const b of density.buckets) max = Math.max(max, value(b));
  context.fillStyle = colors.bar;
  for (const b of density.buckets) {
    const { y, h } = bucketBand(b.start, density.bucketMs, span, size.height);
    const length = barLength(value(b), max, size.width - 2);
    context.fillRect(size.width - length, y, length, h);
  }
  const at = density.buckets[cursor];
  if (at) {
    const { y, h } = bucketBand(at.start, density.bucketMs, span, size.height);
    context.fillStyle = colors.marker;
    context.fillRect(0, y + h / 2 - 1, size.width, 2);
  }
  // What was drawn, for a test or a benchmark to wait on (a canvas has no text to look at).
  element.dataset.drawn = String(density.buckets.length);
}
