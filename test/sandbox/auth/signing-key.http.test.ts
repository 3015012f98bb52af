/** The sandbox's ID-token key: made once per process, and each school's tokens still name that school. */
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { exchangeCode, obtainCode } from './oauth-flow.js';

const sandboxes: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()));
});

async function started(): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ autoApprove: true });
  sandboxes.push(sandbox);
  return sandbox;
}

async function publishedKeys(sandbox: RunningSandbox): Promise<unknown> {
  return ((await (await fetch(`${sandbox.url}/api/oauth/jwks`)).json()) as { keys: unknown }).keys;
}

function claimsOf(idToken: string): { iss: string; aud: string | string[] } {
  return JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString()) as {
    iss: string;
    aud: string | string[];
  };
}

describe('the ID-token signing key', () => {
  it('is made once per process: two sandboxes publish the same key', async () => {
    const [first, second] = [await started(), await started()];
    const keys = await publishedKeys(first);
    expect(keys).toHaveLength(1);
    expect(await publishedKeys(second)).toEqual(keys);
  });

  it('signs tokens that name the school that issued them and the client they were issued to', async () => {
    const [first, second] = [await started(), await started()];
    for (const sandbox of [first, second]) {
      const grant = await obtainCode(sandbox.url, { scope: 'openid profile' });
      const claims = claimsOf(String((await exchangeCode(sandbox.url, grant)).body.id_token));
      expect(claims.iss).toBe(sandbox.issuer);
      expect([claims.aud].flat()).toEqual([grant.client.clientId]);
    }
    expect(first.issuer).not.toBe(second.issuer);
  });
});
