import { useEffect, useState } from 'react';
import type { RemoteCredentialsState } from '../../../shared/contract/remoteCredentials.js';
import type { HindsightErrorData } from '../../../shared/errors.js';
import { asError, remoteCredentials } from '../../api/hindsight.js';

// What the credentials form of a remote knows and does: whether the keychain holds its keys (asked
// again when the remote changes), the keys being typed, and one change at a time (set or forget),
// after which the entry closes and its fields are emptied. A failed change keeps what was typed.

export type CredentialsRequest = Parameters<typeof remoteCredentials>[0];

export interface RemoteCredentials {
  state: RemoteCredentialsState | null;
  error: HindsightErrorData | null;
  busy: boolean;
  editing: boolean;
  setEditing(editing: boolean): void;
  accessKeyId: string;
  setAccessKeyId(value: string): void;
  secret: string;
  setSecret(value: string): void;
  act(request: CredentialsRequest): Promise<void>;
}

export function useRemoteCredentials(remote: string): RemoteCredentials {
  const [state, setState] = useState<RemoteCredentialsState | null>(null);
  const [error, setError] = useState<HindsightErrorData | null>(null);
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [accessKeyId, setAccessKeyId] = useState('');
  const [secret, setSecret] = useState('');

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

  const act = async (request: CredentialsRequest) => {
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
  return { state, error, busy, editing, setEditing, accessKeyId, setAccessKeyId, secret, setSecret, act };
}
