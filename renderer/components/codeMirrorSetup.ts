import { css } from '@codemirror/lang-css';
import { html } from '@codemirror/lang-html';
import { javascript } from '@codemirror/lang-javascript';
import { json } from '@codemirror/lang-json';
import { markdown } from '@codemirror/lang-markdown';
import { python } from '@codemirror/lang-python';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView, lineNumbers } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';
import { extensionOf } from '../format/fileKind.js';

// The read-only CodeMirror setup shared by the content view and the diff views. Colours come
// from CSS variables, so one highlighter serves light and dark.

const highlight = HighlightStyle.define([
  { tag: [t.keyword, t.modifier, t.operatorKeyword, t.controlKeyword], color: 'var(--syn-keyword)' },
  { tag: [t.string, t.special(t.string), t.regexp], color: 'var(--syn-string)' },
  { tag: [t.number, t.bool, t.null, t.atom], color: 'var(--syn-number)' },
  { tag: [t.comment, t.lineComment, t.blockComment], color: 'var(--syn-comment)', fontStyle: 'italic' },
  { tag: [t.function(t.variableName), t.function(t.propertyName)], color: 'var(--syn-function)' },
  { tag: [t.typeName, t.className, t.namespace], color: 'var(--syn-type)' },
  { tag: [t.propertyName, t.attributeName], color: 'var(--syn-property)' },
  { tag: [t.tagName, t.heading], color: 'var(--syn-tag)', fontWeight: '600' },
  { tag: [t.link, t.url], color: 'var(--syn-string)', textDecoration: 'underline' },
  { tag: t.emphasis, fontStyle: 'italic' },
  { tag: t.strong, fontWeight: '700' },
  { tag: t.invalid, color: 'var(--danger)' },
]);

const theme = EditorView.theme({
  '&': { height: '100%', backgroundColor: 'var(--surface)', color: 'var(--text)', fontSize: 'var(--text-md)' },
  '.cm-scroller': { fontFamily: 'var(--font-mono)', lineHeight: '1.55' },
  '.cm-gutters': { backgroundColor: 'var(--surface)', color: 'var(--text-faint)', borderRight: '1px solid var(--border)' },
  '.cm-content': { caretColor: 'var(--text)' },
  '&.cm-focused': { outline: 'none' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': { backgroundColor: 'var(--selection) !important' },
  '.cm-activeLine': { backgroundColor: 'transparent' },
});

/**
 * The diff views' look, from the app's colour tokens: changed lines tinted, the words that
 * changed marked more strongly, and the collapsed unchanged lines as a plain bar. (CodeMirror's
 * own bar draws its ends with a character many fonts lack, shown as empty boxes.)
 */
const diffTheme = EditorView.theme({
  '&.cm-merge-a .cm-changedLine, .cm-deletedChunk': { backgroundColor: 'var(--diff-removed-bg)' },
  '&.cm-merge-b .cm-changedLine, .cm-inlineChangedLine': { backgroundColor: 'var(--diff-added-bg)' },
  '&.cm-merge-a .cm-changedText, .cm-deletedChunk .cm-deletedText': { background: 'var(--diff-removed-strong)', borderRadius: '2px' },
  '&.cm-merge-b .cm-changedText': { background: 'var(--diff-added-strong)', borderRadius: '2px' },
  '&.cm-merge-a .cm-changedLineGutter, .cm-deletedLineGutter': { background: 'var(--deleted)' },
  '&.cm-merge-b .cm-changedLineGutter': { background: 'var(--added)' },
  '.cm-collapsedLines': {
    backgroundColor: 'var(--surface-sunken)',
    backgroundImage: 'none',
    color: 'var(--text-muted)',
    fontFamily: 'var(--font-ui)',
    fontSize: 'var(--text-sm)',
    borderTop: '1px dashed var(--border-strong)',
    borderBottom: '1px dashed var(--border-strong)',
    padding: '3px 10px',
    '&:before, &:after': { content: 'none' },
    '&:hover': { color: 'var(--text)', backgroundColor: 'var(--selection-inactive)' },
  },
  '.cm-block-action': { padding: '2px 8px', fontFamily: 'var(--font-ui)', fontSize: 'var(--text-sm)' },
  '.cm-block-action-button': {
    font: 'inherit',
    color: 'var(--accent)',
    background: 'var(--surface)',
    border: '1px solid var(--border-strong)',
    borderRadius: '4px',
    padding: '1px 8px',
    cursor: 'pointer',
    '&:hover': { backgroundColor: 'var(--selection-inactive)' },
    '&:focus-visible': { outline: '2px solid var(--focus, var(--accent))', outlineOffset: '1px' },
  },
});

/** Extensions both diff views add to the read-only setup. */
export const diffExtensions: Extension[] = [diffTheme, EditorState.phrases.of({ '$ unchanged lines': '$ unchanged lines (click to show)' })];

export function languageFor(path: string): Extension {
  switch (extensionOf(path)) {
    case 'js':
    case 'mjs':
    case 'cjs':
      return javascript();
    case 'jsx':
      return javascript({ jsx: true });
    case 'ts':
    case 'mts':
    case 'cts':
      return javascript({ typescript: true });
    case 'tsx':
      return javascript({ typescript: true, jsx: true });
    case 'json':
      return json();
    case 'css':
      return css();
    case 'html':
    case 'htm':
      return html();
    case 'md':
    case 'markdown':
      return markdown();
    case 'py':
      return python();
    default:
      return [];
  }
}

export function readOnlyExtensions(path: string, label: string, dark: boolean): Extension[] {
  return [
    EditorView.darkTheme.of(dark),
    lineNumbers(),
    EditorView.lineWrapping,
    EditorState.readOnly.of(true),
    EditorView.contentAttributes.of({ 'aria-label': label, 'aria-readonly': 'true' }),
    syntaxHighlighting(highlight),
    languageFor(path),
    theme,
  ];
}
