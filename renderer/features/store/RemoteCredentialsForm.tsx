import { useId, type FormEvent } from 'react';
import { ErrorNote } from '../../components/ErrorNote.js';
import { useRemoteCredentials, type RemoteCredentials } from './useRemoteCredentials.js';

// A remote's access key and secret for the app, kept in the OS keychain by main (never in
// config.json): says only whether they are set, and lets the user enter, replace or forget them.
// The secret is a password field and is never shown back. Where there is no keychain (the browser
// host) the form says so: pushes there use the AWS environment or profile.

export function RemoteCredentialsForm({ remote }: { remote: string }) {
  const credentials = useRemoteCredentials(remote);
  const { state, error, editing } = credentials;
  const id = useId();

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
      {state && !editing && <CredentialsActions remote={remote} isSet={isSet} credentials={credentials} />}
      {state && !state.available && <p className="muted">The system keychain is not available, so credentials cannot be kept here.</p>}
      {editing && <CredentialsEntry remote={remote} credentials={credentials} />}
      {error && <ErrorNote error={error} title="The credentials were not changed" />}
    </div>
  );
}

/** "Set credentials of …" (or "Replace …") and, when they are set, "Forget credentials of …". */
function CredentialsActions({ remote, isSet, credentials }: { remote: string; isSet: boolean; credentials: RemoteCredentials }) {
  const { state, busy, setEditing, act } = credentials;
  return (
    <div className="card-actions">
      <button type="button" className="button" disabled={busy || !state?.available} onClick={() => setEditing(true)}>
        {isSet ? `Replace credentials of ${remote}…` : `Set credentials of ${remote}…`}
      </button>
      {isSet && (
        <button type="button" className="button" disabled={busy} onClick={() => void act({ action: 'forget', remote })}>
          {`Forget credentials of ${remote}`}
        </button>
      )}
    </div>
  );
}

/** The access key ID and the secret (a password field), saved in the keychain on submit. */
function CredentialsEntry({ remote, credentials }: { remote: string; credentials: RemoteCredentials }) {
  const { busy, setEditing, accessKeyId, setAccessKeyId, secret, setSecret, act } = credentials;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void act({ action: 'set', remote, accessKeyId, secretAccessKey: secret });
  };
  return (
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
  );
}
