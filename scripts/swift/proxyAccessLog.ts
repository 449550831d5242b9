import { readFileSync } from 'node:fs';

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
