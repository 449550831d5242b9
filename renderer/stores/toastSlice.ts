import type { Slice } from './appState.js';

// Short notices after an action, some with one follow-up (Undo). They stay until dismissed or
// replaced, so a notice with an Undo button never disappears before the user can reach it.

export interface Toast {
  id: number;
  message: string;
  tone: 'info' | 'error';
  action?: { label: string; run: () => void };
}

export interface ToastSlice {
  toasts: Toast[];
  pushToast(toast: Omit<Toast, 'id'>): void;
  dismissToast(id: number): void;
}

let nextId = 1;
const MAX_TOASTS = 3;

export const createToastSlice: Slice<ToastSlice> = (set) => ({
  toasts: [],
  pushToast: (toast) => set((s) => ({ toasts: [...s.toasts, { ...toast, id: nextId++ }].slice(-MAX_TOASTS) })),
  dismissToast: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
});
