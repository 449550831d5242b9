import { useApp } from '../../stores/appStore.js';

// config.json could not be used: say which backup holds the user's bytes and that nothing will
// be written over it until it is fixed.

export function ConfigBanner() {
  const error = useApp((s) => s.configError);
  if (!error) return null;
  const backup = typeof error.details?.backup === 'string' ? error.details.backup : null;
  const file = typeof error.details?.path === 'string' ? error.details.path : 'config.json';
  return (
    <div className="banner banner-danger" role="alert">
      <strong>{error.code === 'CONFIG_CORRUPT' ? 'Your settings file is damaged.' : 'Your settings file cannot be read.'}</strong>{' '}
      {backup ? (
        <>
          A copy of it was saved as <code>{backup}</code>.{' '}
        </>
      ) : null}
      {error.message} Hindsight will not change {file} until it is fixed or removed; recent projects and settings are not shown meanwhile.
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
