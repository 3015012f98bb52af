// A school-mcp process that takes the refresh lock and then hangs in its refresh request, so the
// test can kill it with SIGKILL while it holds the lock. Says {"refreshing":true} at that moment.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [built, school, storeDir] = process.argv.slice(2);
const { createSignInSession } = await import(pathToFileURL(join(built, 'src/consent/index.js')).href);
const { createLogger } = await import(pathToFileURL(join(built, 'src/log.js')).href);

const say = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const session = createSignInSession({
  schoolUrl: new URL(school),
  storeDir,
  logger: createLogger({ level: 'warn' }),
  prompter: { present: async (prompt) => say({ prompt: prompt.url }) },
  fetch: async (url, init) => {
    if (String(init.body ?? '').includes('grant_type=refresh_token')) {
      say({ refreshing: true });
      return new Promise(() => undefined);
    }
    return fetch(url, init);
  },
});
await session.accessToken({ scopeAlternatives: [['courses:read']], requiredScopes: ['courses:read'] });
