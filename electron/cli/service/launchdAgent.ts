import { serviceArgv, type ServiceSpec } from './serviceSpec.js';

// The launchd agent that runs `hindsight watch --all` on macOS (~/Library/LaunchAgents), started
// at login and kept alive. launchd stops it with SIGTERM, as systemd does.

export const LAUNCHD_LABEL = 'dev.hindsight.watch';

/** XML 1.0 allows no control character but tab, line feed and carriage return. */
function notXmlChar(char: string): boolean {
  const code = char.codePointAt(0)!;
  return code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d;
}

/** Text as XML character data: the five characters XML reserves, escaped. */
export function xmlText(text: string): string {
  if ([...text].some(notXmlChar)) throw new Error(`a property list cannot hold control characters: ${JSON.stringify(text)}`);
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

export function launchdAgent(spec: ServiceSpec, logFile: string): string {
  const args = serviceArgv(spec).map((arg) => `\t\t<string>${xmlText(arg)}</string>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
    '\t<key>Label</key>',
    `\t<string>${LAUNCHD_LABEL}</string>`,
    '\t<key>ProgramArguments</key>',
    '\t<array>',
    ...args,
    '\t</array>',
    '\t<key>RunAtLoad</key>',
    '\t<true/>',
    '\t<key>KeepAlive</key>',
    '\t<dict>',
    '\t\t<key>SuccessfulExit</key>',
    '\t\t<false/>',
    '\t</dict>',
    '\t<key>ProcessType</key>',
    '\t<string>Background</string>',
    '\t<key>LowPriorityIO</key>',
    '\t<true/>',
    '\t<key>Nice</key>',
    '\t<integer>19</integer>',
    '\t<key>ExitTimeOut</key>',
    '\t<integer>60</integer>',
    '\t<key>StandardErrorPath</key>',
    `\t<string>${xmlText(logFile)}</string>`,
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}
