// The pin drawn beside a pinned version or snapshot (the words beside it say "Pinned").

export function PinMark() {
  return (
    <svg className="pin-mark" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
      <path d="M10.5 1.5l4 4-1.6.6-2.6 2.6.3 3.2-1.1 1.1-2.6-2.6L3 14.3l-.7-.7 3.9-3.9-2.6-2.6 1.1-1.1 3.2.3 2.6-2.6z" fill="currentColor" />
    </svg>
  );
}
