// A separate school-mcp process asking for a token: prints each consent prompt and the token it
// ends with as JSON lines on stdout, for the two-process test to read.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [built, school, storeDir] = process.argv.slice(2);
const { createSignInSession } = await import(pathToFileURL(join(built, 'src/consent/index.js')).href);
const { createLogger } = await import(pathToFileURL(join(built, 'src/log.js')).href);

const say = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const session = createSignInSession({
  schoolUrl: new URL(school),
  storeDir,
  // Tells the test when this process waits for the other one's flow, so the played user can
  // answer only then.
  logger: createLogger({
    level: 'info',
    write: (line) =>
      line.includes('another school-mcp process is asking')
        ? say({ waiting: true })
        : process.stderr.write(`${line}\n`),
  }),
  consentTimeoutMs: 20_000,
  prompter: { present: async (prompt) => say({ prompt: prompt.url }) },
});
try {
  say({
    token: await session.accessToken({ scopeAlternatives: [['courses:read']], requiredScopes: ['courses:read'] }),
  });
} catch (error) {
  say({ error: error.code ?? String(error) });
}
await session.close();
process.exit(0);
