/**
 * What both grant stores must do for a key rotation to end safely, written once and run against
 * each: the census by key, the reseal that keeps expiry and fence, the compare-and-set that leaves
 * a writer's newer record (or a taken one) alone, and records no key given opens counted, kept.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import {
  countStoreKeys,
  parseStoreKeys,
  resealStore,
  type GrantStore,
  type SealedRecordScan,
  type StoreKeyring,
} from '../../../src/grant-store/index.js';

type ScannableStore = GrantStore & { scan(): SealedRecordScan };
/** Opens the same store (directory or Redis database) under these keys. */
export type OpenUnder = (keys: StoreKeyring) => Promise<ScannableStore>;

export function keyring(...keys: Buffer[]): StoreKeyring {
  const parsed = parseStoreKeys(keys.map((bytes) => bytes.toString('base64')).join(' '));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.keyring;
}

const now = () => Math.floor(Date.now() / 1000);

async function envelopes(
  store: ScannableStore,
): Promise<Map<string, { keyId: string; expiresAt?: number; fence?: number }>> {
  const found = new Map<string, { keyId: string; expiresAt?: number; fence?: number }>();
  for await (const record of store.scan().records()) {
    const sealed = JSON.parse(record.text) as { keyId: string; expiresAt?: number; fence?: number };
    found.set(`${record.address.namespace}/${record.address.name}`, {
      keyId: sealed.keyId,
      ...(sealed.expiresAt === undefined ? {} : { expiresAt: sealed.expiresAt }),
      ...(sealed.fence === undefined ? {} : { fence: sealed.fence }),
    });
  }
  return found;
}

/** Records under A, a reseal under B,A: every one under B with its expiry and fence, and all open under B alone. */
export async function expectResealToFinishTheRotation(openUnder: OpenUnder): Promise<{ a: Buffer; b: Buffer }> {
  const [a, b] = [randomBytes(32), randomBytes(32)];
  const underA = await openUnder(keyring(a));
  await underA.write('school-grant', 'usr_ada', { who: 'ada' });
  await underA.write('oidc-access-token', 'tok1', { n: 1 }, { ttlSeconds: 3600 });
  await underA.write('oidc-access-token', 'tok2', { n: 2 }, { ttlSeconds: 3600 });
  // A second holder's fence, so that a write with the first one is one a fence must refuse.
  await (await underA.lock('school-grant', 'usr_bo', { ttlMs: 60_000 }))!.release();
  const lock = (await underA.lock('school-grant', 'usr_bo', { ttlMs: 60_000 }))!;
  expect(lock.fence).toBeGreaterThan(1);
  expect(await underA.writeFenced('school-grant', 'usr_bo', { who: 'bo' }, lock.fence)).toBe(true);
  const aId = keyring(a).current.id;
  const bId = keyring(b).current.id;
  const envelopesBefore = await envelopes(underA);

  const rotating = await openUnder(keyring(b, a));
  const counted = await countStoreKeys(rotating.scan(), keyring(b, a), now);
  // The lock held on usr_bo, and its fence counter, are not records.
  expect(counted.before.keys).toEqual([
    { keyId: bId, records: 0, current: true, given: true },
    { keyId: aId, records: 4, current: false, given: true },
  ]);
  expect(counted.before).toMatchObject({ underOldKeys: 4, unreadable: 0 });
  expect(counted.after).toBeUndefined();

  const report = await resealStore(rotating.scan(), keyring(b, a), now);
  expect(report).toMatchObject({
    resealed: 4,
    changedMeanwhile: 0,
    before: { underOldKeys: 4 },
    after: { underOldKeys: 0, unreadable: 0 },
  });
  expect(report.after!.keys).toEqual([
    { keyId: bId, records: 4, current: true, given: true },
    { keyId: aId, records: 0, current: false, given: true },
  ]);
  const envelopesAfter = await envelopes(rotating);
  expect([...envelopesAfter.keys()].sort()).toEqual([...envelopesBefore.keys()].sort());
  for (const [name, before] of envelopesBefore) {
    expect(envelopesAfter.get(name), name).toEqual({ ...before, keyId: bId });
  }
  await lock.release();

  const underB = await openUnder(keyring(b));
  expect(await underB.read('school-grant', 'usr_ada')).toEqual({ who: 'ada' });
  expect(await underB.read('school-grant', 'usr_bo')).toEqual({ who: 'bo' });
  expect(await underB.read('oidc-access-token', 'tok2')).toEqual({ n: 2 });
  // A fenced writer after the reseal still finds the fence it left, so an older holder stays refused.
  expect(await underB.writeFenced('school-grant', 'usr_bo', { who: 'stale' }, lock.fence - 1)).toBe(false);
  return { a, b };
}

/** A record rewritten, or taken, between the reseal's read and its replacement is left as the writer left it. */
export async function expectResealToLeaveNewerRecords(openUnder: OpenUnder): Promise<void> {
  const [a, b] = [randomBytes(32), randomBytes(32)];
  const underA = await openUnder(keyring(a));
  await underA.write('school-grant', 'usr_ada', { refresh: 'old' });
  await underA.write('consume-claim', 'code1', { once: true });
  const rotating = await openUnder(keyring(b, a));
  const scan = rotating.scan();
  const seen = [];
  for await (const record of scan.records()) seen.push(record);
  const grant = seen.find((record) => record.address.namespace === 'school-grant')!;
  const claim = seen.find((record) => record.address.namespace === 'consume-claim')!;

  // Another instance rotates the grant and takes the claim meanwhile.
  await rotating.write('school-grant', 'usr_ada', { refresh: 'new' });
  expect(await rotating.take('consume-claim', 'code1')).toEqual({ once: true });

  expect(await scan.replaceIfUnchanged(grant, grant.text)).toBe(false);
  expect(await scan.replaceIfUnchanged(claim, claim.text)).toBe(false);
  expect(await rotating.read('school-grant', 'usr_ada')).toEqual({ refresh: 'new' });
  expect(await rotating.read('consume-claim', 'code1')).toBeUndefined();

  // Through the whole reseal: a writer between the read and the replacement is counted, not undone.
  await underA.write('school-grant', 'usr_bo', { refresh: 'old' });
  const racing: SealedRecordScan = {
    location: scan.location,
    records: () => scan.records(),
    async replaceIfUnchanged(record, sealed) {
      await rotating.write('school-grant', 'usr_bo', { refresh: 'newer' });
      return scan.replaceIfUnchanged(record, sealed);
    },
  };
  const report = await resealStore(racing, keyring(b, a), now);
  expect(report).toMatchObject({ resealed: 0, changedMeanwhile: 1, after: { underOldKeys: 0 } });
  expect(await rotating.read('school-grant', 'usr_bo')).toEqual({ refresh: 'newer' });
}

/** Records sealed with a key not given are counted as unreadable by namespace, and the reseal keeps them. */
export async function expectUnreadableRecordsCountedAndKept(openUnder: OpenUnder): Promise<void> {
  const [lost, b] = [randomBytes(32), randomBytes(32)];
  const underLost = await openUnder(keyring(lost));
  await underLost.write('school-grant', 'usr_ada', { who: 'ada' });
  await underLost.write('oidc-access-token', 'tok1', { n: 1 });
  await underLost.write('oidc-access-token', 'tok2', { n: 2 });
  const underB = await openUnder(keyring(b));
  await underB.write('school-grant', 'usr_bo', { who: 'bo' });

  const report = await resealStore(underB.scan(), keyring(b), now);
  expect(report).toMatchObject({
    resealed: 0,
    after: { underOldKeys: 0, unreadable: 3, unreadableByNamespace: { 'school-grant': 1, 'oidc-access-token': 2 } },
  });
  expect(report.after!.keys).toEqual([
    { keyId: keyring(b).current.id, records: 1, current: true, given: true },
    { keyId: keyring(lost).current.id, records: 3, current: false, given: false },
  ]);
  // Kept: the key may come back.
  expect(await underLost.read('school-grant', 'usr_ada')).toEqual({ who: 'ada' });
  expect(JSON.stringify(report)).not.toMatch(/usr_ada|tok1|"who"/);
}
