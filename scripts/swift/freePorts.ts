import { createServer, type Server } from 'node:net';

// Ports nobody listens on right now, found by binding port 0 on loopback. All are held open
// together so the same port is never handed out twice; a race with another process between
// closing and binding is possible, and the caller retries when it happens.

export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
    }
    return servers.map((s) => {
      const address = s.address();
      if (!address || typeof address === 'string') throw new Error('No port was assigned.');
      return address.port;
    });
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}
