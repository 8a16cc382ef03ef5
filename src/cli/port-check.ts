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

/** A TCP port free on 127.0.0.1 right now (the OS picks it): tests, the bench and the chaos suite use it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
