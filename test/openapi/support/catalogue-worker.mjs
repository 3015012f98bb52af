// Builds one catalogue in a worker thread so that the test can stop it at a deadline: a document
// that sends the generator into a loop fails its test instead of hanging the suite. It runs the
// built code (dist/), which `npm test` builds first.
//
// The path is joined rather than written as `new URL(literal, import.meta.url)`: knip reads such a
// URL as an import, maps a dist/ path back to src/ only while the file exists, and then counts
// every export of the part as used. Its verdict hung on whether the build, which npm test runs
// beside knip, had written the file yet.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

const builtOpenApiPart = pathToFileURL(join(import.meta.dirname, '../../../dist/src/openapi/index.js')).href;
const { buildCatalogue, parseDocumentText } = await import(builtOpenApiPart);

parentPort.postMessage({ kind: 'started' });
try {
  const document =
    workerData.file === undefined
      ? workerData.document
      : parseDocumentText(readFileSync(workerData.file, 'utf8'), { source: workerData.file }).document;
  const catalogue = await buildCatalogue(
    document,
    workerData.schoolUrl === undefined ? {} : { schoolUrl: workerData.schoolUrl },
  );
  parentPort.postMessage({
    kind: 'built',
    catalogue: {
      operations: catalogue.operations,
      toolsets: [...catalogue.toolsets].map(([name, operations]) => [
        name,
        operations.map((operation) => operation.toolName),
      ]),
      warnings: catalogue.warnings,
      groupedBy: catalogue.groupedBy,
      upgradedFrom: catalogue.upgradedFrom,
    },
  });
} catch (error) {
  parentPort.postMessage({ kind: 'failed', code: error?.code, message: String(error?.message ?? error) });
}
