// A canvas draws with colors, not CSS: the design tokens (styles/tokens.css) read off an element,
// so a drawing follows the light or dark theme the OS asks for (read again when it changes).

export function themeColors<K extends string>(element: Element, tokens: Record<K, string>): Record<K, string> {
  const style = getComputedStyle(element);
  const colors = {} as Record<K, string>;
  for (const key of Object.keys(tokens) as K[]) colors[key] = style.getPropertyValue(tokens[key]).trim() || 'gray';
  return colors;
}
