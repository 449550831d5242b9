import { MergeView, unifiedMergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { readOnlyExtensions } from './codeMirrorSetup.js';
import { shadowContainer, useDarkScheme } from './shadowMount.js';

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
  const dark = useDarkScheme();
  useEffect(() => {
    if (!host.current) return;
    const { root, container: parent } = shadowContainer(host.current);
    if (layout === 'side') {
      const view = new MergeView({
        a: { doc: before, extensions: readOnlyExtensions(path, beforeLabel, dark) },
        b: { doc: after, extensions: readOnlyExtensions(path, afterLabel, dark) },
        parent,
        root,
        gutter: true,
        collapseUnchanged: collapse,
      });
      return () => view.destroy();
    }
    const view = new EditorView({
      state: EditorState.create({
        doc: after,
        extensions: [...readOnlyExtensions(path, `${beforeLabel} compared with ${afterLabel}`, dark), unifiedMergeView({ original: before, mergeControls: false, collapseUnchanged: collapse })],
      }),
      parent,
      root,
    });
    return () => view.destroy();
  }, [path, before, after, layout, beforeLabel, afterLabel, dark]);
  return <div className={`diff-view diff-${layout}`} ref={host} data-testid="diff-view" />;
}
