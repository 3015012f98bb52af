/**
 * The sandbox school behind a listener that keeps every request's headers, so a test can see
 * exactly what school-mcp sent upstream (the sandbox itself records only method and path).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createSandbox, type SandboxApp } from '@school-mcp/sandbox';

interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface RecordingSchool {
  readonly url: string;
  readonly app: SandboxApp;
  readonly seen: readonly SeenRequest[];
  close(): Promise<void>;
}

export async function startRecordingSchool(): Promise<RecordingSchool> {
  const seen: SeenRequest[] = [];
  let app: SandboxApp | undefined;
  const adapter = toNodeHandler({
    fetch: (request: Request) => {
      seen.push({
        method: request.method,
        path: new URL(request.url).pathname,
        headers: Object.fromEntries(request.headers),
      });
      return app!.fetch(request);
    },
  });
  const server = createServer((req, res) => void adapter(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  app = createSandbox(url, { autoApprove: true });
  return {
    url,
    app,
    seen,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app!.close();
    },
  };
}
