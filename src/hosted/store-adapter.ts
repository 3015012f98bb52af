/**
 * node-oidc-provider's storage adapter on the grant store: one record per model instance (a
 * registered MCP client, a grant, a code, a token, a session, an interaction), kept for the
 * lifetime the provider gives it. The lookups the provider needs besides `find` (a session by
 * its uid, everything of a grant for `revokeByGrantId`) are records of their own, so that a
 * shared store serves them to every instance alike. A grant is stamped with its person's sign-in
 * generation and is not found once that person's sign-in ended (`person-generation.ts`).
 */
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import {
  holdingLock,
  isFiniteNumber,
  isText,
  listOf,
  objectWith,
  optional,
  readRecord,
  takeRecord,
  type Check,
  type GrantStore,
  type HoldingLockOptions,
  type RecordKind,
} from '../grant-store/index.js';
import { isUrlClientId } from './client-metadata-document.js';
import type { ClientMetadataDocuments } from './client-metadata-documents.js';
import { generationOf, isCurrentGeneration } from './person-generation.js';

/** Models whose instances belong to a grant and go when it is revoked. */
const GRANT_MEMBERS = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
]);
/** Models used once: a second use is refused even when two requests race for the first. */
const CONSUMABLE = new Set(['AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);
const CONSUME_CLAIMS = 'oidc-consume-claim';
const SESSION_UIDS = 'oidc-session-uid';
const GRANT_INDEX = 'oidc-grant-members';

/** Pure: the store namespace of a provider model, `AccessToken` → `oidc-access-token`. */
export function namespaceOfModel(model: string): string {
  return `oidc-${model.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase()}`;
}

interface StoredPayload {
  readonly payload: AdapterPayload;
  /** Seconds since the epoch, kept so that `consume` can write the record back with the time it has left. */
  readonly expiresAt?: number;
  /** A grant's: the sign-in generation of its person when it was first saved. */
  readonly generation?: string;
}

interface GrantMember {
  readonly model: string;
  readonly id: string;
  /** Seconds since the epoch; absent for a member that does not expire (and in indexes written before). */
  readonly expiresAt?: number;
}

interface GrantIndex {
  readonly members: readonly GrantMember[];
  /** The latest expiry of its members; absent when one of them does not expire. */
  readonly expiresAt?: number;
}

/**
 * An engine payload: only what this adapter reads of it is checked here; the rest is the engine's
 * own to read and check as it loads one (a token's times, a client's metadata).
 */
const isAdapterPayload: Check<AdapterPayload> = objectWith({
  accountId: optional(isText),
  clientId: optional(isText),
  grantId: optional(isText),
  uid: optional(isText),
});

/** A model's record as the store gives it back (ST-17). */
function payloadRecord(namespace: string): RecordKind<StoredPayload> {
  return {
    namespace,
    check: objectWith({ payload: isAdapterPayload, expiresAt: optional(isFiniteNumber), generation: optional(isText) }),
  };
}

/** A grant's index of members as the store gives it back (ST-17). */
const GRANT_INDEX_RECORD: RecordKind<GrantIndex> = {
  namespace: GRANT_INDEX,
  check: objectWith({
    members: listOf(objectWith({ model: isText, id: isText, expiresAt: optional(isFiniteNumber) })),
    expiresAt: optional(isFiniteNumber),
  }),
};

/** A session's uid pointing at its id (ST-17). */
const SESSION_UID_RECORD: RecordKind<{ readonly id: string }> = {
  namespace: SESSION_UIDS,
  check: objectWith({ id: isText }),
};

/**
 * An index change takes milliseconds; a holder that died frees the lock well within a token
 * request's patience.
 */
const INDEX_LOCK: HoldingLockOptions = { ttlMs: 5_000, waitMs: 8_000, pollMs: 10 };

/**
 * Pure: the grant index with one more member. Members already past their expiry are dropped (their
 * records are gone), and the index lasts as long as its longest-lived member.
 */
export function withMember(index: GrantIndex | undefined, member: GrantMember, nowSeconds: number): GrantIndex {
  const kept = (index?.members ?? []).filter(
    (existing) => existing.expiresAt === undefined || existing.expiresAt > nowSeconds,
  );
  const members = [...kept, member];
  const lasting = index === undefined || index.expiresAt !== undefined;
  const expiresAt =
    lasting && member.expiresAt !== undefined ? Math.max(index?.expiresAt ?? 0, member.expiresAt) : undefined;
  return { members, ...(expiresAt === undefined ? {} : { expiresAt }) };
}

/** How far past its latest token a used client is kept, so it is written again at most once a day. */
const CLIENT_KEPT_PAST_TOKENS_SECONDS = 24 * 3600;

/**
 * Pure: the later expiry a registered client needs now that a token of its expires at
 * `memberExpiresAt`, or `undefined` when it lasts long enough already (or never expires). A client
 * that is used lives as long as its tokens; one that never is goes with its first TTL (HOST-43).
 */
export function clientKeptUntil(
  clientExpiresAt: number | undefined,
  memberExpiresAt: number | undefined,
): number | undefined {
  if (clientExpiresAt === undefined || memberExpiresAt === undefined || memberExpiresAt <= clientExpiresAt)
    return undefined;
  return memberExpiresAt + CLIENT_KEPT_PAST_TOKENS_SECONDS;
}

/**
 * The adapter class the provider instantiates once per model. The grant index is read, changed
 * and written by one writer at a time across instances (the store's lock on it, the write fenced),
 * so two tokens of one grant issued at once on two instances are both in it and both revoked with
 * it; `serialize` queues this instance's own changes so that they do not poll for its own lock.
 */
export function storeAdapterClass(
  store: GrantStore,
  nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
  /** Clients named by a URL: their metadata document is their registration (HOST-17). */
  clientMetadataDocuments?: ClientMetadataDocuments,
  /** How long a registered client is kept until a token is issued to it; for ever when absent (HOST-43). */
  unusedClientSeconds?: number,
): new (model: string) => Adapter {
  const chains = new Map<string, Promise<unknown>>();
  const serialize = <T>(key: string, step: () => Promise<T>): Promise<T> => {
    const next = (chains.get(key) ?? Promise.resolve()).then(step, step);
    chains.set(key, next);
    void next
      .finally(() => {
        if (chains.get(key) === next) chains.delete(key);
      })
      .catch(() => undefined);
    return next;
  };
  const ttlUntil = (expiresAt: number | undefined) =>
    expiresAt === undefined ? {} : { ttlSeconds: Math.max(1, expiresAt - nowSeconds()) };
  const CLIENTS = payloadRecord(namespaceOfModel('Client'));
  /** A token was issued to this client: it stays at least as long as the token (HOST-43). */
  const keepClient = async (clientId: string, memberExpiresAt: number | undefined) => {
    const record = await readRecord(store, CLIENTS, clientId);
    const until = record === undefined ? undefined : clientKeptUntil(record.expiresAt, memberExpiresAt);
    if (record === undefined || until === undefined) return;
    await store.write(CLIENTS.namespace, clientId, { ...record, expiresAt: until }, ttlUntil(until));
  };

  return class StoreAdapter implements Adapter {
    readonly #model: string;
    readonly #namespace: string;
    readonly #records: RecordKind<StoredPayload>;

    constructor(model: string) {
      this.#model = model;
      this.#namespace = namespaceOfModel(model);
      this.#records = payloadRecord(this.#namespace);
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number | undefined): Promise<void> {
      // The engine keeps a registration for ever; one nobody uses goes after `unusedClientSeconds`.
      const lifetime =
        this.#model === 'Client' && (expiresIn === undefined || expiresIn <= 0) ? unusedClientSeconds : expiresIn;
      const expiresAt = lifetime === undefined || lifetime <= 0 ? undefined : nowSeconds() + lifetime;
      const generation =
        this.#model === 'Grant' && typeof payload.accountId === 'string'
          ? await this.#stampOf(id, payload.accountId)
          : undefined;
      const record: StoredPayload = {
        payload,
        ...(expiresAt === undefined ? {} : { expiresAt }),
        ...(generation === undefined ? {} : { generation }),
      };
      await store.write(this.#namespace, id, { ...record }, ttlUntil(expiresAt));
      if (CONSUMABLE.has(this.#model) && payload.consumed === undefined)
        await store.write(CONSUME_CLAIMS, `${this.#model} ${id}`, {}, ttlUntil(expiresAt));
      if (this.#model === 'Session' && typeof payload.uid === 'string')
        await store.write(SESSION_UIDS, payload.uid, { id }, ttlUntil(expiresAt));
      if (GRANT_MEMBERS.has(this.#model) && typeof payload.clientId === 'string' && !isUrlClientId(payload.clientId))
        await keepClient(payload.clientId, expiresAt);
      if (GRANT_MEMBERS.has(this.#model) && typeof payload.grantId === 'string') {
        const grantId = payload.grantId;
        const member: GrantMember = { model: this.#model, id, ...(expiresAt === undefined ? {} : { expiresAt }) };
        await serialize(grantId, async () => {
          for (;;) {
            const written = await holdingLock(store, GRANT_INDEX, grantId, INDEX_LOCK, async (fence) => {
              const index = withMember(await readRecord(store, GRANT_INDEX_RECORD, grantId), member, nowSeconds());
              // Kept past its longest-lived member, so that a revocation still finds them all.
              const ttl =
                index.expiresAt === undefined ? {} : { ttlSeconds: Math.max(1, index.expiresAt - nowSeconds()) * 2 };
              return store.writeFenced(GRANT_INDEX, grantId, { ...index }, fence, ttl);
            });
            // Refused only when this lock ran out and a later holder wrote: read its index and add again.
            if (written) return;
          }
        });
      }
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.#model === 'Client' && isUrlClientId(id)) return clientMetadataDocuments?.find(id);
      const record = await readRecord(store, this.#records, id);
      const accountId = record?.payload.accountId;
      // HOST-33: every use of a token looks its grant up; one from before its person's sign-out ended is not there.
      if (
        this.#model === 'Grant' &&
        typeof accountId === 'string' &&
        !isCurrentGeneration(record!.generation, await generationOf(store, accountId))
      )
        return undefined;
      return record?.payload;
    }

    /**
     * A grant keeps the stamp of its first save (school-mcp saves each grant once, but a save
     * again must not carry it into a later generation); a new one takes its person's current one.
     */
    async #stampOf(id: string, accountId: string): Promise<string> {
      const saved = await readRecord(store, this.#records, id);
      return saved?.generation ?? (await generationOf(store, accountId));
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const pointer = await readRecord(store, SESSION_UID_RECORD, uid);
      return pointer === undefined ? undefined : this.find(pointer.id);
    }

    async findByUserCode(): Promise<AdapterPayload | undefined> {
      // The device flow is not enabled: there are no user codes to find.
      return undefined;
    }

    async consume(id: string): Promise<void> {
      // The engine reads, checks `consumed`, then consumes: two racing requests could both pass the
      // check. The claim is taken once (the store's take), so the second is refused here.
      if (CONSUMABLE.has(this.#model) && (await store.take(CONSUME_CLAIMS, `${this.#model} ${id}`)) === undefined) {
        throw new errors.InvalidGrant('this grant was already used');
      }
      const record = await readRecord(store, this.#records, id);
      if (record === undefined) return;
      const consumed: StoredPayload = { ...record, payload: { ...record.payload, consumed: nowSeconds() } };
      await store.write(this.#namespace, id, { ...consumed }, ttlUntil(record.expiresAt));
    }

    async destroy(id: string): Promise<void> {
      await store.remove(this.#namespace, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await serialize(grantId, () =>
        holdingLock(store, GRANT_INDEX, grantId, INDEX_LOCK, async () => {
          const index = await takeRecord(store, GRANT_INDEX_RECORD, grantId);
          for (const member of index?.members ?? []) await store.remove(namespaceOfModel(member.model), member.id);
        }),
      );
    }
  };
}
