import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { readOnlyExtensions } from './codeMirrorSetup.js';

// A version's text, read-only, with line numbers and syntax highlighting.

export function CodeView({ path, text, label }: { path: string; text: string; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!host.current) return;
    const view = new EditorView({ state: EditorState.create({ doc: text, extensions: readOnlyExtensions(path, label) }), parent: host.current });
    return () => view.destroy();
  }, [path, text, label]);
  return <div className="code-view" ref={host} />;
}
