/**
 * What every grant store does with records, checked the same way on each backend.
 */
import { expect } from 'vitest';
import type { GrantStore } from '../../../src/grant-store/index.js';

/** One record per namespace and name, replaced as a whole, removed on request (twice is fine). */
export async function expectRecordsKeptApart(store: GrantStore): Promise<void> {
  await store.write('school-grant', 'usr_owner_ada', { scopes: ['courses:read'] });
  await store.write('school-grant', 'usr_lecturer_grace', { scopes: ['events:read'] });
  await store.write('client', 'usr_owner_ada', { kind: 'a client record under the same name' });
  expect(await store.read('school-grant', 'usr_owner_ada')).toEqual({ scopes: ['courses:read'] });
  await store.write('school-grant', 'usr_owner_ada', { scopes: ['courses:read', 'courses:write'] });
  expect(await store.read('school-grant', 'usr_owner_ada')).toEqual({ scopes: ['courses:read', 'courses:write'] });
  expect(await store.read('school-grant', 'usr_lecturer_grace')).toEqual({ scopes: ['events:read'] });
  expect(await store.read('client', 'usr_owner_ada')).toEqual({ kind: 'a client record under the same name' });
  await store.remove('school-grant', 'usr_owner_ada');
  await store.remove('school-grant', 'usr_owner_ada');
  expect(await store.read('school-grant', 'usr_owner_ada')).toBeUndefined();
  expect(await store.read('school-grant', 'nobody')).toBeUndefined();
}

/**
 * `writeIfAbsent` creates a record only where there is none: of creators racing on `stores` (one
 * per instance), exactly one wins, and every later reader sees the winner's value.
 */
export async function expectOneCreatorWins(stores: readonly GrantStore[]): Promise<void> {
  const first = stores[0]!;
  expect(await first.writeIfAbsent('hosted-secrets', 'solo', { by: 'first' })).toBe(true);
  expect(await first.writeIfAbsent('hosted-secrets', 'solo', { by: 'second' })).toBe(false);
  expect(await first.read('hosted-secrets', 'solo')).toEqual({ by: 'first' });
  for (let round = 0; round < 3; round += 1) {
    const created = await Promise.all(Array.from({ length: 12 }, (_, index) => stores[index % stores.length]!.writeIfAbsent('hosted-secrets', `raced-${round}`, { by: index })));
    expect(created.filter(Boolean)).toHaveLength(1);
    const winner = created.indexOf(true);
    for (const store of stores) expect(await store.read('hosted-secrets', `raced-${round}`)).toEqual({ by: winner });
  }
}
