/**
 * A loopback port the kernel just handed out and that was then released, for servers that cannot
 * listen on port 0 themselves (redis-server, haproxy). Another process may take it in between;
 * callers that start on it retry on a new one when the start fails.
 */
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
