// Builds one catalogue in a worker thread so that the test can stop it at a deadline: a document
// that sends the generator into a loop fails its test instead of hanging the suite. It runs the
// built code (dist/), which `npm test` builds first.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const { buildCatalog, parseDocumentText } = await import(new URL('../../../dist/src/openapi/index.js', import.meta.url).href);

parentPort.postMessage({ kind: 'started' });
try {
  const document = workerData.file === undefined ? workerData.document : parseDocumentText(readFileSync(workerData.file, 'utf8'), { source: workerData.file }).document;
  const catalog = await buildCatalog(document, workerData.schoolUrl === undefined ? {} : { schoolUrl: workerData.schoolUrl });
  parentPort.postMessage({
    kind: 'built',
    catalog: {
      operations: catalog.operations,
      toolsets: [...catalog.toolsets].map(([name, operations]) => [name, operations.map((operation) => operation.toolName)]),
      warnings: catalog.warnings,
      groupedBy: catalog.groupedBy,
      upgradedFrom: catalog.upgradedFrom,
    },
  });
} catch (error) {
  parentPort.postMessage({ kind: 'failed', code: error?.code, message: String(error?.message ?? error) });
}
