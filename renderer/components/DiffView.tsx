import { MergeView, unifiedMergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { readOnlyExtensions } from './codeMirrorSetup.js';

// Two texts compared, side by side (MergeView) or inline (the unified view), unchanged runs
// collapsed so the changes are what the eye lands on.

interface DiffViewProps {
  path: string;
  before: string;
  after: string;
  layout: 'side' | 'inline';
  beforeLabel: string;
  afterLabel: string;
}

const collapse = { margin: 3, minSize: 6 };

export function DiffView({ path, before, after, layout, beforeLabel, afterLabel }: DiffViewProps) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const parent = host.current;
    if (!parent) return;
    if (layout === 'side') {
      const view = new MergeView({
        a: { doc: before, extensions: readOnlyExtensions(path, beforeLabel) },
        b: { doc: after, extensions: readOnlyExtensions(path, afterLabel) },
        parent,
        gutter: true,
        collapseUnchanged: collapse,
      });
      return () => view.destroy();
    }
    const view = new EditorView({
      state: EditorState.create({
        doc: after,
        extensions: [...readOnlyExtensions(path, `${beforeLabel} compared with ${afterLabel}`), unifiedMergeView({ original: before, mergeControls: false, collapseUnchanged: collapse })],
      }),
      parent,
    });
    return () => view.destroy();
  }, [path, before, after, layout, beforeLabel, afterLabel]);
  return <div className={`diff-view diff-${layout}`} ref={host} data-testid="diff-view" />;
}
