import { isIP } from 'node:net';

// Which addresses only this machine can reach. Anything else needs --allow-remote.

export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || bare.toLowerCase() === '::ffff:127.0.0.1';
  return false;
}
