/**
 * Finishing a key rotation: every record of the store read once, each one sealed with an old key
 * sealed again with the current key, and a census taken afterwards, so that what the report says
 * remains is what a fresh look at the store found, not a sum of what was done. Safe while instances
 * serve: a record is replaced only while it still holds what was read (`SealedRecordScan`), and a
 * record rewritten meanwhile was rewritten under the current key by its writer.
 */
import { standingOf, takeCensus, type CountedRecord, type KeyCensus } from './key-census.js';
import { openRecord, parseSealedRecord, sealRecord, type RecordAddress } from './sealed-record.js';
import type { StoreKeyring } from './store-keys.js';

/** One record as it rests in the store: where it is and its sealed text. */
export interface ScannedRecord {
  /** The address its seal is bound to (the namespace, and the hash of the record's name). */
  readonly address: RecordAddress;
  readonly text: string;
}

/**
 * The records of a store, for maintenance: read without knowing their names, replaced only when
 * unchanged. Locks and fence counters are not records and are not listed.
 */
export interface SealedRecordScan {
  /** What the report calls the store: its directory, or its Redis URL without credentials. */
  readonly location: string;
  records(): AsyncIterable<ScannedRecord>;
  /**
   * Replaces the record with `sealed` only while it still holds `record.text`, keeping its expiry
   * (the TTL in Redis); `false` when it was rewritten, taken or removed meanwhile.
   */
  replaceIfUnchanged(record: ScannedRecord, sealed: string): Promise<boolean>;
}

export interface ResealReport {
  readonly location: string;
  /** Before anything was resealed (the only census of a count). */
  readonly before: KeyCensus;
  /** Present after a reseal: the store as a second pass found it. */
  readonly after?: KeyCensus;
  readonly resealed: number;
  /** Rewritten, taken or removed by an instance between the read and the replacement: left as the writer left it. */
  readonly changedMeanwhile: number;
}

/** The record as counted, its seal tried with the keys given; with the opened plaintext when it opened. */
function examine(
  record: ScannedRecord,
  keyring: StoreKeyring,
  nowSeconds: number,
): CountedRecord & { readonly plaintext?: string } {
  const sealed = parseSealedRecord(record.text);
  const standing = standingOf(sealed, keyring, nowSeconds);
  if (sealed === undefined || (standing.kind !== 'current' && standing.kind !== 'old'))
    return { namespace: record.address.namespace, standing };
  const opened = openRecord(sealed, record.address, keyring);
  return opened.ok
    ? { namespace: record.address.namespace, standing, plaintext: opened.plaintext }
    : { namespace: record.address.namespace, standing, damaged: true };
}

async function census(scan: SealedRecordScan, keyring: StoreKeyring, nowSeconds: () => number): Promise<KeyCensus> {
  const counted: CountedRecord[] = [];
  for await (const record of scan.records()) counted.push(examine(record, keyring, nowSeconds()));
  return takeCensus(counted, keyring);
}

/** Counts the records under each key; changes nothing. */
export async function countStoreKeys(
  scan: SealedRecordScan,
  keyring: StoreKeyring,
  nowSeconds: () => number,
): Promise<ResealReport> {
  return { location: scan.location, before: await census(scan, keyring, nowSeconds), resealed: 0, changedMeanwhile: 0 };
}

/** Seals every record under an old key again with the current key, then counts afresh. */
export async function resealStore(
  scan: SealedRecordScan,
  keyring: StoreKeyring,
  nowSeconds: () => number,
): Promise<ResealReport> {
  const counted: CountedRecord[] = [];
  let resealed = 0;
  let changedMeanwhile = 0;
  for await (const record of scan.records()) {
    const examined = examine(record, keyring, nowSeconds());
    counted.push(examined);
    if (examined.standing.kind !== 'old' || examined.plaintext === undefined) continue;
    const sealed = parseSealedRecord(record.text)!;
    // The same expiry and fence under the seal: the record's lifetime and its place in a lock's order do not change.
    const again = JSON.stringify(
      sealRecord(examined.plaintext, record.address, sealed.expiresAt, keyring.current, sealed.fence),
    );
    if (await scan.replaceIfUnchanged(record, again)) resealed += 1;
    else changedMeanwhile += 1;
  }
  return {
    location: scan.location,
    before: takeCensus(counted, keyring),
    after: await census(scan, keyring, nowSeconds),
    resealed,
    changedMeanwhile,
  };
}
