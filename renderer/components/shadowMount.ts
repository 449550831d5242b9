import { useEffect, useState } from 'react';

// CodeMirror mounts its styles as a <style> element in a document, which the strict CSP
// (style-src 'self') refuses; in a shadow root it uses constructable stylesheets instead. So each
// editor lives in its host element's shadow root. CSS variables (the tokens) still inherit in.

export function shadowContainer(host: HTMLElement): { root: ShadowRoot; container: HTMLElement } {
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  root.replaceChildren();
  const container = document.createElement('div');
  container.style.height = '100%';
  container.style.overflow = 'auto';
  root.append(container);
  return { root, container };
}

const query = '(prefers-color-scheme: dark)';

/** Whether the OS asks for dark, kept current. */
export function useDarkScheme(): boolean {
  const [dark, setDark] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const onChange = () => setDark(list.matches);
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, []);
  return dark;
}
