import { describe, expect, it } from 'vitest';
import { autostartEntry, autostartFile, execArg } from '../../electron/main/autostartEntry.js';

// Start at login on Linux: the XDG autostart entry the app writes (Electron's login-item API has
// no Linux side). Its Exec line quoted as the Desktop Entry Specification reads it.

describe('the autostart entry', () => {
  it('goes to XDG_CONFIG_HOME/autostart (an absolute one), else ~/.config/autostart', () => {
    expect(autostartFile('/home/me', { XDG_CONFIG_HOME: '/cfg' })).toBe('/cfg/autostart/hindsight.desktop');
    expect(autostartFile('/home/me', { XDG_CONFIG_HOME: 'rel' })).toBe('/home/me/.config/autostart/hindsight.desktop');
    expect(autostartFile('/home/me', {})).toBe('/home/me/.config/autostart/hindsight.desktop');
  });

  it('starts the app in the background, every argument quoted where it must be', () => {
    const entry = autostartEntry(['/opt/Hindsight/hindsight', '--background']);
    expect(entry).toContain('[Desktop Entry]\nType=Application\nName=Hindsight\n');
    expect(entry).toContain('\nExec=/opt/Hindsight/hindsight --background\n');
    expect(execArg('/home/me/My Apps/hindsight')).toBe('"/home/me/My Apps/hindsight"');
    // " ` $ \\ escaped inside the quotes, % doubled, then each backslash doubled for the string value.
    expect(execArg('a"b$c`d\\e 50%')).toBe('"a\\\\"b\\\\$c\\\\`d\\\\\\\\e 50%%"');
    expect(() => execArg('a\nb')).toThrow(/line break/);
  });
});
