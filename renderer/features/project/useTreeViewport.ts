import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { drawnRange, ROW } from './treeGeometry.js';

// The file tree's scrolling element: its height (followed as it resizes), the rows its scroll
// position shows, and the active row kept in view.

export function useTreeViewport(count: number, activeIndex: number, noMatch: boolean) {
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);

  // The element is new when the tree comes back after "no files match".
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setHeight(el.clientHeight));
    observer.observe(el);
    setHeight(el.clientHeight);
    setScrollTop(el.scrollTop);
    return () => observer.disconnect();
  }, [noMatch]);

  // Keep the active row drawn and in view.
  useEffect(() => {
    const el = scroller.current;
    if (!el || activeIndex < 0) return;
    const top = activeIndex * ROW;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + ROW > el.scrollTop + el.clientHeight) el.scrollTop = top + ROW - el.clientHeight;
  }, [activeIndex]);

  return { scroller, height, setScrollTop, ...drawnRange(scrollTop, height, count) };
}
