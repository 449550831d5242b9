import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { readOnlyExtensions } from './codeMirrorSetup.js';
import { shadowContainer, useDarkScheme } from './shadowMount.js';

// A version's text, read-only, with line numbers and syntax highlighting.

export function CodeView({ path, text, label }: { path: string; text: string; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const dark = useDarkScheme();
  useEffect(() => {
    if (!host.current) return;
    const { root, container } = shadowContainer(host.current);
    const view = new EditorView({ state: EditorState.create({ doc: text, extensions: readOnlyExtensions(path, label, dark) }), parent: container, root });
    return () => view.destroy();
  }, [path, text, label, dark]);
  return <div className="code-view" ref={host} />;
}
