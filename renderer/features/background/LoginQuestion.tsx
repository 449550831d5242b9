import { LOGIN_QUESTION } from '../../../shared/recording.js';
import { Dialog } from '../../components/Dialog.js';
import { useApp } from '../../stores/appStore.js';

// Asked once, after the first project is added (the app only): start Hindsight at login, so
// changes are recorded even when no window was opened. Off until the user says yes; Escape is no.

export function LoginQuestion() {
  const open = useApp((s) => s.loginQuestion);
  const answer = useApp((s) => s.answerLoginQuestion);
  if (!open) return null;
  return (
    <Dialog
      title={LOGIN_QUESTION.title}
      onClose={() => void answer(false)}
      footer={
        <>
          <button type="button" className="button" onClick={() => void answer(false)}>
            {LOGIN_QUESTION.no}
          </button>
          <button type="button" className="button button-primary" onClick={() => void answer(true)}>
            {LOGIN_QUESTION.yes}
          </button>
        </>
      }
    >
      <p>{LOGIN_QUESTION.text}</p>
    </Dialog>
  );
}
