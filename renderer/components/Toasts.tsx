import { useEffect } from 'react';
import { useApp } from '../stores/appStore.js';
import type { Toast } from '../stores/toastSlice.js';

// Notices at the bottom of the window. A polite live region reads them out; an action (Undo)
// runs once and closes its toast. Notices fade on their own (one with Undo stays long enough
// to reach it); errors stay until dismissed.

const LIFETIME_MS = { plain: 6_000, action: 30_000 };

function useExpiry(toast: Toast, dismiss: (id: number) => void): void {
  useEffect(() => {
    if (toast.tone === 'error') return;
    const timer = setTimeout(() => dismiss(toast.id), toast.action ? LIFETIME_MS.action : LIFETIME_MS.plain);
    return () => clearTimeout(timer);
  }, [toast, dismiss]);
}

function Expiring({ toast, dismiss }: { toast: Toast; dismiss: (id: number) => void }) {
  useExpiry(toast, dismiss);
  return null;
}

export function Toasts() {
  const toasts = useApp((s) => s.toasts);
  const dismiss = useApp((s) => s.dismissToast);
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.tone}`}>
          <Expiring toast={t} dismiss={dismiss} />
          <span className="toast-message">{t.message}</span>
          {t.action && (
            <button
              type="button"
              className="button button-link"
              onClick={() => {
                dismiss(t.id);
                t.action?.run();
              }}
            >
              {t.action.label}
            </button>
          )}
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
