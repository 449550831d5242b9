import { CLOSE_NOTICE } from '../../../shared/recording.js';
import { Dialog } from '../../components/Dialog.js';
import { useApp } from '../../stores/appStore.js';

// The first close of the last window (the app only): before it closes, the window says that
// recording goes on and how to stop it. Shown once; Escape keeps the window open.

export function CloseNotice() {
  const open = useApp((s) => s.closeNotice);
  const answer = useApp((s) => s.answerCloseNotice);
  if (!open) return null;
  return (
    <Dialog
      title={CLOSE_NOTICE.title}
      onClose={() => useApp.setState({ closeNotice: false })}
      footer={
        <>
          <button type="button" className="button" onClick={() => void answer(true)}>
            {CLOSE_NOTICE.quit}
          </button>
          <button type="button" className="button button-primary" onClick={() => void answer(false)}>
            {CLOSE_NOTICE.close}
          </button>
        </>
      }
    >
      <p>{CLOSE_NOTICE.text}</p>
    </Dialog>
  );
}
