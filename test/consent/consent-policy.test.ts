import { describe, expect, it } from 'vitest';
import {
  consentScopes,
  refusedInReadOnly,
  type ConsentRequest,
  type DocumentScopes,
} from '../../src/consent/consent-policy.js';
import type { FetchLike } from '../../src/network/index.js';
import { buildCatalogue, consentScopeFacts, loadDocument } from '../../src/openapi/index.js';
import { createSandbox } from '@school-mcp/sandbox';
import { DEFAULT_TOOLSETS } from '../../src/server/index.js';
import { resolveSessionConfig } from '../../src/consent/session-config.js';
import { createLogger } from '../../src/log.js';

/** A school whose enabled toolsets are school, orders and coupons, and whose posts are reached by discovery. */
const SCHOOL: DocumentScopes = {
  readable: ['coupons:read', 'courses:write', 'orders:read', 'posts:read', 'reports', 'school:read'],
  upFront: ['coupons:read', 'orders:read', 'school:read'],
  readsWith: { 'coupons:write': ['coupons:read'], 'posts:write': ['posts:read'] },
};

const READS_GRANTED = ['coupons:read', 'openid', 'orders:read', 'profile', 'school:read'];

function ask(overrides: Partial<ConsentRequest>): string[] {
  return consentScopes({
    granted: [],
    required: [],
    policy: { mode: 'reads-first' },
    readOnly: false,
    document: SCHOOL,
    ...overrides,
  });
}

describe('the default consent policy (reads first)', () => {
  it('AZ-06 the first consent asks for the reads of every enabled toolset with openid profile, whatever read is called first', () => {
    expect(ask({ required: ['school:read'] })).toEqual(READS_GRANTED);
    expect(ask({ required: ['orders:read'] })).toEqual(READS_GRANTED);
  });

  it('AZ-06 a first call that writes asks for the reads and that one write scope, no other write', () => {
    expect(ask({ required: ['coupons:write'] })).toEqual([
      'coupons:read',
      'coupons:write',
      'openid',
      'orders:read',
      'profile',
      'school:read',
    ]);
  });

  it('AZ-06 a later write asks for granted ∪ the write scope: the reads are granted already, so nothing else is new', () => {
    expect(ask({ granted: READS_GRANTED, required: ['coupons:write'] })).toEqual([
      'coupons:read',
      'coupons:write',
      'openid',
      'orders:read',
      'profile',
      'school:read',
    ]);
  });

  it("a write of a group whose reads are not granted yet also asks for that group's read, so verifying it needs no second prompt", () => {
    const scopes = ask({ granted: READS_GRANTED, required: ['posts:write'] });
    expect(scopes).toEqual(expect.arrayContaining(['posts:read', 'posts:write']));
    expect(scopes.filter((scope) => !READS_GRANTED.includes(scope))).toEqual(['posts:read', 'posts:write']);
  });

  it('never shrinks what is granted', () => {
    expect(ask({ granted: ['account:write', 'openid'], required: ['school:read'] })).toContain('account:write');
  });

  it('a challenged scope that is named like a property of an object is only a scope', () => {
    expect(ask({ granted: READS_GRANTED, required: ['constructor', '__proto__', 'toString'] })).toEqual(
      ['__proto__', ...READS_GRANTED, 'constructor', 'toString'].sort(),
    );
  });

  it('without the document (login, logout, status) asks for what is needed only', () => {
    const document: DocumentScopes = { readable: [], upFront: [], readsWith: {} };
    expect(ask({ required: ['courses:read'], document })).toEqual(['courses:read', 'openid', 'profile']);
  });
});

describe('the other policies', () => {
  it('AZ-06 --scopes least asks for granted ∪ required ∪ openid profile only: one scope per call, no reads up front, no read with a write', () => {
    expect(ask({ policy: { mode: 'least' }, required: ['school:read'] })).toEqual(['openid', 'profile', 'school:read']);
    expect(
      ask({ policy: { mode: 'least' }, granted: ['courses:read', 'openid'], required: ['coupons:write'] }),
    ).toEqual(['coupons:write', 'courses:read', 'openid', 'profile']);
  });

  it('AZ-06 --scopes "a b" asks for the chosen set up front, plus what the call needs, and nothing of the document', () => {
    expect(
      ask({ policy: { mode: 'fixed', scopes: ['courses:read', 'students:read'] }, required: ['orders:read'] }),
    ).toEqual(['courses:read', 'openid', 'orders:read', 'profile', 'students:read']);
  });
});

describe('read-only mode', () => {
  it("AZ-08 refuses the scopes of a school's challenge that no read operation of the document accepts", () => {
    expect(refusedInReadOnly(['admin', 'courses:delete', 'write:org'], SCHOOL)).toEqual([
      'admin',
      'courses:delete',
      'write:org',
    ]);
    expect(refusedInReadOnly(['admin', 'orders:read'], SCHOOL)).toEqual(['admin']);
  });

  it('AZ-08 decides by the operations, not the spelling: a scope a read accepts is allowed whatever its name, a read-looking one no read accepts is refused', () => {
    expect(refusedInReadOnly(['reports', 'courses:write', 'posts:read', 'openid', 'profile'], SCHOOL)).toEqual([]);
    expect(refusedInReadOnly(['forms:read'], SCHOOL)).toEqual(['forms:read']);
  });

  it('AZ-08 without the document only openid profile may be asked for', () => {
    expect(refusedInReadOnly(['courses:read', 'openid'], { readable: [], upFront: [], readsWith: {} })).toEqual([
      'courses:read',
    ]);
  });

  it('AZ-08 asks for the reads up front, and leaves out granted scopes that no read accepts', () => {
    expect(ask({ readOnly: true, granted: ['account:write', 'openid'], required: ['school:read'] })).toEqual(
      READS_GRANTED,
    );
  });

  it('AZ-08 a fixed --scopes list under --read-only is checked against the document before anything runs', () => {
    const base = {
      schoolUrl: new URL('https://school.example'),
      storeDir: '/tmp/x',
      prompter: { present: async () => {} },
      logger: createLogger({ write: () => {} }),
    };
    expect(() =>
      resolveSessionConfig({
        ...base,
        readOnly: true,
        documentScopes: SCHOOL,
        scopePolicy: { mode: 'fixed', scopes: ['admin', 'orders:read'] },
      }),
    ).toThrow(
      expect.objectContaining({
        code: 'OAUTH_INVALID_CONFIG',
        message: expect.stringContaining('admin cannot be asked for in read-only mode'),
      }),
    );
    expect(
      resolveSessionConfig({
        ...base,
        readOnly: true,
        documentScopes: SCHOOL,
        scopePolicy: { mode: 'fixed', scopes: ['reports'] },
      }).scopePolicy,
    ).toEqual({
      mode: 'fixed',
      scopes: ['reports'],
    });
  });
});

describe("with the sandbox school's document", () => {
  async function sandboxScopes(): Promise<{ facts: DocumentScopes; scopes: string[] }> {
    const school = 'http://127.0.0.1:1';
    const sandbox = createSandbox(school, {});
    try {
      const fetchFromSandbox: FetchLike = (url, init) => sandbox.fetch(new Request(url, init));
      const catalogue = await buildCatalogue(
        (await loadDocument({ schoolUrl: school, fetch: fetchFromSandbox })).document,
        { schoolUrl: school },
      );
      const scopes = [
        ...new Set(catalogue.operations.flatMap((operation) => operation.scopeAlternatives.flat())),
      ].sort();
      return { facts: consentScopeFacts(catalogue.operations, DEFAULT_TOOLSETS), scopes };
    } finally {
      await sandbox.close();
    }
  }

  it('the first consent holds the read of each default toolset, and no write', async () => {
    const { facts } = await sandboxScopes();
    expect(facts.upFront).toEqual([
      'analytics:read',
      'coupons:read',
      'courses:read',
      'members:read',
      'orders:read',
      'school:read',
      'students:read',
    ]);
  });

  it('asking again for what a consent asked for adds nothing, so a call that joins a flow never opens a wider one', async () => {
    const { facts, scopes } = await sandboxScopes();
    for (const scope of scopes) {
      const first = ask({ required: [scope], document: facts });
      expect(ask({ granted: [], required: first, document: facts }), scope).toEqual(first);
    }
  });
});
