import { useEffect, useMemo, useRef, useState } from 'react';
import { splitLines } from '../../shared/diff/splitLines.js';
import { diffLineLists } from '../../shared/diff/textDiff.js';
import { DiffHeader } from './DiffHeader.js';
import { useDiffEditors, type DiffModel, type DiffTexts } from './useDiffEditors.js';

// Two texts compared, side by side (MergeView) or inline (the unified view). The line diff is
// computed once per pair of texts and everything reads it: the views (through their diff
// override, so they do not diff again), the +/- counts, and next/previous change, which steps
// through the hunks `diff -u` would print. Unchanged runs are collapsed so the changes are what
// the eye lands on.

export function DiffView(props: DiffTexts) {
  const { before, after, layout, beforeLabel, afterLabel } = props;
  const host = useRef<HTMLDivElement>(null);
  const model = useMemo<DiffModel>(() => {
    const aLines = splitLines(before);
    const bLines = splitLines(after);
    return { diff: diffLineLists(aLines, bLines), aLines, bLines };
  }, [before, after]);
  const [current, setCurrent] = useState<number | null>(null);
  // The change in view, kept when the layout switches (the new view opens at the same change).
  const shown = useRef<number | null>(null);
  shown.current = current;

  useEffect(() => {
    shown.current = null;
    setCurrent(null);
  }, [model]);

  const scrollTo = useDiffEditors(host, model, shown, props);

  const total = model.diff.hunks.length;
  function go(index: number) {
    if (index < 0 || index >= total) return;
    setCurrent(index);
    scrollTo.current(index);
  }
  const next = () => go(current === null ? 0 : current + 1);
  const previous = () => go(current === null ? 0 : current - 1);
  useStepKeys(next, previous);

  return (
    <div className={`diff-view diff-${layout}`}>
      <DiffHeader layout={layout} diff={model.diff} current={current} beforeLabel={beforeLabel} afterLabel={afterLabel} onPrevious={previous} onNext={next} />
      <div className="diff-editors" ref={host} data-testid="diff-view" />
    </div>
  );
}

/** F7 and Shift+F7 step through the changes from anywhere in the window, as in other diff tools. */
function useStepKeys(next: () => void, previous: () => void): void {
  const keys = useRef({ next, previous });
  keys.current = { next, previous };
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'F7' || event.ctrlKey || event.metaKey || event.altKey) return;
      event.preventDefault();
      if (event.shiftKey) keys.current.previous();
      else keys.current.next();
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
