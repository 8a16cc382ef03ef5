import net from 'node:net';

/** True when something already listens on host:port (we try to listen there ourselves, then let go). */
export function portTaken(host: string, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' ? resolve(true) : reject(error),
    );
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(false)));
  });
}

/** The message for a taken port: which port, what wanted it, and the flag that changes it. */
export function portTakenMessage(port: number, what: string, flag: string): string {
  return `port ${port} (${what}) is already in use: stop what listens there, or choose another port with ${flag} N`;
}

/**
 * A TCP port free on 127.0.0.1 right now: tests, the bench and the chaos suite use it. Drawn below the OS's
 * ephemeral range (Linux 32768–60999, macOS and Windows 49152–65535), where the OS never hands out a port on its
 * own: the Temporal dev server picks its internal services' ports from that range while it starts, and once
 * picked the same port as the frontend port we chose the same way, and died ("bind: address already in use").
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (!(await portTaken('127.0.0.1', port))) return port;
  }
  return osPickedPort();
}

/** A port the OS picks (its ephemeral range): the fallback when the range below it is crowded. */
function osPickedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
