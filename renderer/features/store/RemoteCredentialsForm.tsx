import { useEffect, useId, useState, type FormEvent } from 'react';
import type { RemoteCredentialsState } from '../../../shared/contract/remoteCredentials.js';
import type { HindsightErrorData } from '../../../shared/errors.js';
import { asError, remoteCredentials } from '../../api/hindsight.js';
import { ErrorNote } from '../../components/ErrorNote.js';

// A remote's access key and secret for the app, kept in the OS keychain by main (never in
// config.json): says only whether they are set, and lets the user enter, replace or forget them.
// The secret is a password field and is never shown back. Where there is no keychain (the browser
// host) the form says so: pushes there use the AWS environment or profile.

export function RemoteCredentialsForm({ remote }: { remote: string }) {
  const [state, setState] = useState<RemoteCredentialsState | null>(null);
  const [error, setError] = useState<HindsightErrorData | null>(null);
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [accessKeyId, setAccessKeyId] = useState('');
  const [secret, setSecret] = useState('');
  const id = useId();

  useEffect(() => {
    let live = true;
    remoteCredentials({ action: 'status' }).then(
      (answer) => live && setState(answer),
      (failure: unknown) => live && setError(asError(failure).toJSON()),
    );
    return () => {
      live = false;
    };
  }, [remote]);

  const act = async (request: Parameters<typeof remoteCredentials>[0]) => {
    setBusy(true);
    setError(null);
    try {
      setState(await remoteCredentials(request));
      setEditing(false);
      setAccessKeyId('');
      setSecret('');
    } catch (failure) {
      setError(asError(failure).toJSON());
    } finally {
      setBusy(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void act({ action: 'set', remote, accessKeyId, secretAccessKey: secret });
  };

  if (error?.code === 'KEYCHAIN_UNAVAILABLE' && state === null) {
    return (
      <p className="muted" role="note">
        Credentials: this host has no keychain to keep them in; pushes use the AWS environment variables or profile it was started with.
      </p>
    );
  }
  const isSet = state?.set.includes(remote) ?? false;
  return (
    <div className="remote-credentials">
      <p className="muted" id={`${id}-state`}>
        Credentials: {state === null ? '…' : isSet ? 'set (in the system keychain)' : 'not set (the AWS environment or profile is used)'}
      </p>
      {state && !editing && (
        <div className="card-actions">
          <button type="button" className="button" disabled={busy || !state.available} onClick={() => setEditing(true)}>
            {isSet ? `Replace credentials of ${remote}…` : `Set credentials of ${remote}…`}
          </button>
          {isSet && (
            <button type="button" className="button" disabled={busy} onClick={() => void act({ action: 'forget', remote })}>
              {`Forget credentials of ${remote}`}
            </button>
          )}
        </div>
      )}
      {state && !state.available && <p className="muted">The system keychain is not available, so credentials cannot be kept here.</p>}
      {editing && (
        <form onSubmit={submit} aria-label={`Credentials of ${remote}`}>
          <label className="field">
            <span>Access key ID</span>
            <input
              type="text"
              className="input"
              autoComplete="off"
              spellCheck={false}
              required
              value={accessKeyId}
              onChange={(e) => setAccessKeyId(e.target.value)}
            />
          </label>
          <label className="field">
            <span>Secret access key</span>
            <input type="password" className="input" autoComplete="off" required value={secret} onChange={(e) => setSecret(e.target.value)} />
          </label>
          <div className="card-actions">
            <button type="submit" className="button" disabled={busy}>
              Save in keychain
            </button>
            <button type="button" className="button" disabled={busy} onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {error && <ErrorNote error={error} title="The credentials were not changed" />}
    </div>
  );
}
