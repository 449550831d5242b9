import type { HindsightErrorData } from '../../shared/errors.js';

// A failure shown where it happened: the engine's message (which says what to do) and its code.

export function ErrorNote({ error, title }: { error: HindsightErrorData; title?: string }) {
  return (
    <div className="error-note" role="alert">
      {title && <p className="error-title">{title}</p>}
      <p>{error.message}</p>
      <p className="error-code">{error.code}</p>
    </div>
  );
}
