import { describe, expect, it } from 'vitest';
import { formatStatus } from '../../src/cli/auth-commands.js';

const base = {
  issuer: 'https://s.example',
  clientId: 'c',
  user: { sub: 'u1' },
  scopes: ['openid'],
  expiresAt: 7_200_000,
  signedIn: true,
};

describe('status lines', () => {
  it('says when the school itself confirmed the token (RFC 7662), and when it no longer accepts it', () => {
    expect(formatStatus({ ...base, introspection: 'active' }, 0)).toContain(
      'Checked:    confirmed by the school just now',
    );
    expect(formatStatus({ ...base, introspection: 'inactive' }, 0).join('\n')).toMatch(
      /Checked: {4}the school no longer accepts this access token/,
    );
    expect(formatStatus(base, 0).join('\n')).not.toMatch(/Checked:/);
  });
});
