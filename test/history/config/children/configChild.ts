import { acquireConfigLock } from '../../../../electron/history/config/configLock.js';
import { ConfigStore } from '../../../../electron/history/config/configStore.js';

// A second process for the config tests, bundled by buildChild.ts:
//   hold LOCKPATH             takes the config lock, prints "held", and keeps it until killed
//   edit CONFIGPATH NAME N    makes N edits, each adding "NAME-i" to the exclude patterns

const [mode, target, name, count] = process.argv.slice(2);

if (mode === 'hold') {
  await acquireConfigLock(target!);
  process.stdout.write('held\n');
  setInterval(() => undefined, 1 << 30);
} else if (mode === 'edit') {
  const store = new ConfigStore(target!);
  for (let i = 0; i < Number(count); i++) {
    await store.editConfig((config) => ({
      ...config,
      settings: { ...config.settings, excludePatterns: [...config.settings.excludePatterns, `${name}-${i}`] },
    }));
  }
  process.stdout.write('done\n');
} else {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}
