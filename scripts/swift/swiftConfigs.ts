import { join } from 'node:path';

// The configuration files of one private Swift: every server bound to loopback on its own port,
// one device in a plain folder, the S3 API in front with tempauth's test user. Written into the
// instance's folder; nothing under /etc/swift is read or written.

export interface SwiftPorts {
  proxy: number;
  account: number;
  container: number;
  object: number;
  memcached: number;
}

/** tempauth's user line `user_test_tester = testing .admin`: S3 access key and secret. */
export const SWIFT_S3_ACCESS_KEY = 'test:tester';
export const SWIFT_S3_SECRET = 'testing';
export const SWIFT_S3_REGION = 'us-east-1';

export type SwiftServer = 'account-server' | 'container-server' | 'object-server' | 'proxy-server';

export const SWIFT_SERVERS: readonly SwiftServer[] = ['account-server', 'container-server', 'object-server', 'proxy-server'];

export function swiftConfFile(dir: string, server: SwiftServer): string {
  return join(dir, `${server}.conf`);
}

/** swift.conf: the hash path salt and the one storage policy. */
export function swiftConf(): string {
  return [
    '[swift-hash]',
    'swift_hash_path_suffix = hindsight-test',
    'swift_hash_path_prefix = hindsight',
    '',
    '[storage-policy:0]',
    'name = gold',
    'default = yes',
    '',
  ].join('\n');
}

function common(dir: string, port: number, logName: string, tls?: { cert: string; key: string }): string[] {
  return [
    '[DEFAULT]',
    ...(tls ? [`cert_file = ${tls.cert}`, `key_file = ${tls.key}`] : []),
    `swift_dir = ${dir}`,
    `devices = ${join(dir, 'srv')}`,
    'mount_check = false',
    'disable_fallocate = true',
    'bind_ip = 127.0.0.1',
    `bind_port = ${port}`,
    'workers = 0',
    'bind_timeout = 5',
    `log_name = ${logName}`,
    // No syslog here: every line goes to the console handler the launcher turns on (stderr).
    `log_address = ${join(dir, 'no-syslog')}`,
    '',
  ];
}

function backendConf(dir: string, port: number, kind: 'account' | 'container' | 'object'): string {
  return [...common(dir, port, kind), '[pipeline:main]', `pipeline = ${kind}-server`, '', `[app:${kind}-server]`, `use = egg:swift#${kind}`, ''].join('\n');
}

// slo after s3api, or multipart uploads are silently off; tempauth needs memcached.
const PROXY_PIPELINE =
  'catch_errors gatekeeper healthcheck proxy-logging cache listing_formats s3api tempauth copy slo dlo versioned_writes symlink proxy-logging proxy-server';

function proxyConf(dir: string, ports: SwiftPorts, tls?: { cert: string; key: string }): string {
  const filters = ['catch_errors', 'gatekeeper', 'healthcheck', 'proxy-logging', 'listing_formats', 'copy', 'slo', 'dlo', 'versioned_writes', 'symlink'];
  return [
    ...common(dir, ports.proxy, 'proxy-server', tls),
    '[pipeline:main]',
    `pipeline = ${PROXY_PIPELINE}`,
    '',
    '[app:proxy-server]',
    'use = egg:swift#proxy',
    'account_autocreate = true',
    '',
    '[filter:tempauth]',
    'use = egg:swift#tempauth',
    `user_test_tester = ${SWIFT_S3_SECRET} .admin`,
    '',
    '[filter:s3api]',
    'use = egg:swift#s3api',
    `location = ${SWIFT_S3_REGION}`,
    '',
    '[filter:cache]',
    'use = egg:swift#memcache',
    `memcache_servers = 127.0.0.1:${ports.memcached}`,
    '',
    ...filters.flatMap((name) => [`[filter:${name}]`, `use = egg:swift#${name.replace('-', '_')}`, '']),
  ].join('\n');
}

/** `tls`: the proxy serves HTTPS with this certificate and key (the backends stay plain). */
export function serverConf(dir: string, server: SwiftServer, ports: SwiftPorts, tls?: { cert: string; key: string }): string {
  switch (server) {
    case 'account-server':
      return backendConf(dir, ports.account, 'account');
    case 'container-server':
      return backendConf(dir, ports.container, 'container');
    case 'object-server':
      return backendConf(dir, ports.object, 'object');
    case 'proxy-server':
      return proxyConf(dir, ports, tls);
  }
}
