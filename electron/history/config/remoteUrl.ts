import { HindsightError } from '../../../shared/errors.js';

// A remote's address: `s3://bucket/prefix`. The bucket follows S3's naming rules (3-63 lowercase
// letters, digits, dots and hyphens); the prefix is a folder inside it (no leading or trailing
// slash kept, no `.` or `..` segments), so every object Hindsight writes lives under it.

export interface RemoteLocation {
  bucket: string;
  /** '' for the bucket's root, else segments joined by '/', without a trailing slash. */
  prefix: string;
}

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export function parseRemoteUrl(url: string): RemoteLocation {
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(url);
  if (!match) throw invalid(url, 'it must look like s3://bucket or s3://bucket/prefix');
  const bucket = match[1]!;
  if (!BUCKET.test(bucket) || bucket.includes('..') || /^\d+\.\d+\.\d+\.\d+$/.test(bucket)) {
    throw invalid(url, `"${bucket}" is not a valid bucket name (3-63 lowercase letters, digits, dots and hyphens)`);
  }
  const segments = (match[2] ?? '').split('/').filter((s) => s !== '');
  for (const segment of segments) {
    if (segment === '.' || segment === '..' || hasControlOrBackslash(segment)) {
      throw invalid(url, `the prefix segment "${segment}" is not allowed`);
    }
  }
  const prefix = segments.join('/');
  if (prefix.length > 512) throw invalid(url, 'the prefix is longer than 512 characters');
  return { bucket, prefix };
}

export function formatRemoteUrl(location: RemoteLocation): string {
  return location.prefix ? `s3://${location.bucket}/${location.prefix}` : `s3://${location.bucket}`;
}

/**
 * An endpoint given with --endpoint: an http(s) URL without credentials, query or fragment. A
 * refusal names the endpoint only as `shownEndpoint` gives it, so a secret typed into it is
 * never echoed to a terminal, a log or an error's details.
 */
export function parseEndpoint(endpoint: string): string {
  const shown = shownEndpoint(endpoint);
  const refuse = (why: string) => new HindsightError('REMOTE_URL_INVALID', `The endpoint ${shown} ${why}.`, { endpoint: shown });
  if (shown !== endpointWithoutQuery(endpoint)) throw refuse('must not carry credentials; use the AWS environment variables or a profile');
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw refuse('is not a URL (like https://s3.example.com)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse('must start with http:// or https://');
  if (url.username || url.password) throw refuse('must not carry credentials; use the AWS environment variables or a profile');
  if (url.search || url.hash) throw refuse('must not have a query or fragment');
  return url.toString().replace(/\/$/, '');
}

/**
 * An endpoint as a message may show it, whatever was typed: without anything up to an `@`
 * (user, key, password: a secret may itself hold `/`, so the last `@` counts wherever it is) and
 * without its query or fragment (a signed URL's signature). Works on text that is not a URL at
 * all, since a refusal must not echo it either.
 */
export function shownEndpoint(endpoint: string): string {
  const text = endpointWithoutQuery(endpoint);
  const at = text.lastIndexOf('@');
  if (at === -1) return text;
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(text)?.[0] ?? '';
  return scheme + text.slice(at + 1);
}

function endpointWithoutQuery(endpoint: string): string {
  const cut = endpoint.search(/[?#]/);
  return cut === -1 ? endpoint : endpoint.slice(0, cut);
}

function invalid(url: string, why: string): HindsightError {
  return new HindsightError('REMOTE_URL_INVALID', `The remote address ${url} is not valid: ${why}.`, { url });
}

function hasControlOrBackslash(segment: string): boolean {
  for (const char of segment) {
    const code = char.codePointAt(0)!;
    if (code < 0x20 || code === 0x7f || char === '\\') return true;
  }
  return false;
}
