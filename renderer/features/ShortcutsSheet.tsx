import { create } from 'zustand';
import { Dialog } from '../components/Dialog.js';
import { SHORTCUTS } from './shortcutList.js';
import { shortcutLabel } from './shortcuts.js';

// The "Keyboard shortcuts" sheet, opened with ? (or from the project header): every shortcut of
// the window, from the one list the tooltips quote.

export const useShortcutsSheet = create<{ open: boolean; setOpen: (open: boolean) => void }>()((set) => ({
  open: false,
  setOpen: (open) => set({ open }),
}));

export function ShortcutsSheet() {
  const open = useShortcutsSheet((s) => s.open);
  const setOpen = useShortcutsSheet((s) => s.setOpen);
  if (!open) return null;
  const close = () => setOpen(false);
  return (
    <Dialog
      title="Keyboard shortcuts"
      onClose={close}
      wide
      footer={
        <button type="button" className="button button-primary" onClick={close}>
          Close
        </button>
      }
    >
      <table className="shortcut-table">
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={`${s.mod ? 'mod+' : ''}${s.keys}`}>
              <th scope="row">
                <kbd>{s.mod ? shortcutLabel(s.keys) : s.keys}</kbd>
              </th>
              <td>{s.what}</td>
              <td className="muted">{s.where}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}
