import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { request as httpsRequest } from 'node:https';

// The requests clients made to a private Swift, read from its proxy's access log: exact request
// counts for tests and benchmarks, whatever the client (Hindsight, restic, the AWS SDK).

export interface LoggedRequest {
  method: string;
  /** The request path as the client sent it (S3 style: /bucket/key?query), decoded. */
  path: string;
  status: number;
}

/**
 * One entry per request a client sent. Swift's middleware logs its own sub-requests too; those
 * lines carry no client address and are left out. `bucket` keeps only that bucket's requests.
 */
export function loggedRequests(logFile: string, bucket?: string): LoggedRequest[] {
  const requests: LoggedRequest[] = [];
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    const match = /^proxy-server: (\S+) \S+ \S+ (GET|PUT|HEAD|POST|DELETE) (\S+) HTTP\/1\.[01] (\d{3}) /.exec(line);
    if (!match || match[1] === '-') continue;
    const path = decodeURIComponent(match[3]!);
    if (bucket && !path.startsWith(`/${bucket}/`) && !path.startsWith(`/${bucket}?`) && path !== `/${bucket}`) continue;
    requests.push({ method: match[2]!, path, status: Number(match[4]) });
  }
  return requests;
}

/** What `requestsSoFar` needs of a Swift: where its proxy listens and where it logs. */
export interface LoggingProxy {
  endpoint: string;
  proxyLog: string;
  /** The proxy's self-signed certificate, when it serves TLS. */
  caFile?: string;
}

/**
 * The requests logged so far (of `bucket`), once every request answered before this call is in the
 * log. The proxy writes a request's line after its answer, so a client can hold the answer while
 * the line does not exist yet: a fence request no client sends is made, and its line awaited (the
 * proxy logs in the order it finishes requests). Bounded by the caller's own timeout: a proxy that
 * answered always writes the line.
 */
export async function requestsSoFar(proxy: LoggingProxy, bucket?: string): Promise<LoggedRequest[]> {
  const path = `/hindsight-log-fence-${randomUUID()}`;
  await answerOf(new URL(path, proxy.endpoint), proxy.caFile);
  while (!readFileSync(proxy.proxyLog, 'utf8').includes(path)) await new Promise((resolve) => setTimeout(resolve, 10));
  return loggedRequests(proxy.proxyLog, bucket);
}

/** One unauthenticated GET, its answer read to the end (any status, or none at all, will do). */
function answerOf(url: URL, caFile?: string): Promise<void> {
  return new Promise((resolve) => {
    const options = { host: url.hostname, port: url.port, path: url.pathname, ...(caFile ? { ca: readFileSync(caFile) } : {}) };
    const req = (url.protocol === 'https:' ? httpsRequest : request)(options, (res) => {
      res.resume();
      res.once('end', () => resolve());
      res.once('error', () => resolve());
    });
    req.once('error', () => resolve());
    req.end();
  });
}
