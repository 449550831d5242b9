import type { ReactNode } from 'react';

// A warning on the project that stays until dismissed: a sentence, a Dismiss button, then what
// it lists (what an open could not read, the restores it finished).

export function DismissibleNotice({
  label,
  className,
  message,
  onDismiss,
  children,
}: {
  label: string;
  className: string;
  message: ReactNode;
  onDismiss: () => void;
  children: ReactNode;
}) {
  return (
    <section className={`banner banner-warning ${className}`} role="status" aria-label={label}>
      <div className="unreadable-head">
        <p>{message}</p>
        <button type="button" className="button button-small" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
      {children}
    </section>
  );
}
