import { useApp } from '../../stores/appStore.js';

// config.json could not be used: say which backup holds the user's bytes and that nothing will
// be written over it until it is fixed. The engine's full message is one click away (title).

export function ConfigBanner() {
  const error = useApp((s) => s.configError);
  if (!error) return null;
  const details = error.details ?? {};
  const backup = typeof details.backupPath === 'string' ? details.backupPath : typeof details.backup === 'string' ? details.backup : null;
  const file = typeof details.path === 'string' ? details.path : 'config.json';
  const corrupt = error.code === 'CONFIG_CORRUPT';
  return (
    <div className="banner banner-danger" role="alert" title={error.message}>
      <strong>{corrupt ? 'Your settings file is damaged.' : 'Your settings file cannot be read.'}</strong>{' '}
      {backup ? (
        <>
          Its bytes were kept in <code>{backup}</code>.{' '}
        </>
      ) : (
        <>{error.message} </>
      )}
      Hindsight will not change <code>{file}</code> until you fix or remove it; until then recent projects are not listed. Your histories are safe.
    </div>
  );
}

export function ConnectionBanner() {
  const lost = useApp((s) => s.connectionLost);
  if (!lost) return null;
  return (
    <div className="banner banner-warning" role="alert">
      The history process stopped. It is being restarted; your history is safe on disk.
    </div>
  );
}
