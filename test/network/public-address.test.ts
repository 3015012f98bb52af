import { describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../src/network/index.js';
import { publicAddressLookup } from '../../src/network/public-address.js';

function lookup(hostname: string): Promise<{ error: (Error & { code?: string }) | null; address: string }> {
  return new Promise((resolve) =>
    publicAddressLookup(hostname, {}, (error, address) =>
      resolve({ error, address: typeof address === 'string' ? address : JSON.stringify(address) }),
    ),
  );
}

describe('public addresses', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '[::1]',
    'fd00::1',
    'fe80::1',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    'localhost',
  ])('HOST-21 does not count %s as public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '172.32.0.1'])('counts %s as public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('HOST-21 refuses a name that resolves to this machine, and passes a public address through', async () => {
    const local = await lookup('localhost');
    expect(local.error?.code).toBe('ENOTPUBLIC');
    const publicOne = await lookup('8.8.8.8');
    expect(publicOne.error).toBeNull();
    expect(publicOne.address).toBe('8.8.8.8');
  });
});
