import type { KeyboardEvent } from 'react';

// Arrow keys, Home and End in a list of selectable buttons (versions, snapshots): selection and
// focus move together, and stop at the ends.

export function moveInList<Id extends number | string>(
  event: KeyboardEvent<HTMLElement>,
  ids: readonly Id[],
  selected: Id | null,
  select: (id: Id) => unknown,
  dataAttribute: string,
): void {
  const index = selected === null ? -1 : ids.indexOf(selected);
  const next =
    event.key === 'ArrowDown' ? index + 1 : event.key === 'ArrowUp' ? index - 1 : event.key === 'Home' ? 0 : event.key === 'End' ? ids.length - 1 : null;
  if (next === null) return;
  event.preventDefault();
  const id = ids[Math.max(0, Math.min(ids.length - 1, next))];
  if (id === undefined) return;
  void select(id);
  event.currentTarget.querySelector<HTMLElement>(`[${dataAttribute}="${id}"]`)?.focus();
}
