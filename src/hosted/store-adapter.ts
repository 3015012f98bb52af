/**
 * node-oidc-provider's storage adapter on the grant store: one record per model instance (a
 * registered MCP client, a grant, a code, a token, a session, an interaction), kept for the
 * lifetime the provider gives it. The lookups the provider needs besides `find` (a session by
 * its uid, everything of a grant for `revokeByGrantId`) are records of their own, so that a
 * shared store serves them to every instance alike. A grant is stamped with its person's sign-in
 * generation and is not found once that person's sign-in ended (`person-generation.ts`).
 */
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import { holdingLock, type GrantStore, type HoldingLockOptions } from '../grant-store/index.js';
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
  const CLIENTS = namespaceOfModel('Client');
  /** A token was issued to this client: it stays at least as long as the token (HOST-43). */
  const keepClient = async (clientId: string, memberExpiresAt: number | undefined) => {
    const record = (await store.read(CLIENTS, clientId)) as StoredPayload | undefined;
    const until = record === undefined ? undefined : clientKeptUntil(record.expiresAt, memberExpiresAt);
    if (record === undefined || until === undefined) return;
    await store.write(
      CLIENTS,
      clientId,
      { ...record, expiresAt: until } as unknown as Record<string, unknown>,
      ttlUntil(until),
    );
  };

  return class StoreAdapter implements Adapter {
    readonly #model: string;
    readonly #namespace: string;

    constructor(model: string) {
      this.#model = model;
      this.#namespace = namespaceOfModel(model);
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
      await store.write(this.#namespace, id, record as unknown as Record<string, unknown>, ttlUntil(expiresAt));
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
              const index = withMember(
                (await store.read(GRANT_INDEX, grantId)) as GrantIndex | undefined,
                member,
                nowSeconds(),
              );
              // Kept past its longest-lived member, so that a revocation still finds them all.
              const ttl =
                index.expiresAt === undefined ? {} : { ttlSeconds: Math.max(1, index.expiresAt - nowSeconds()) * 2 };
              return store.writeFenced(GRANT_INDEX, grantId, index as unknown as Record<string, unknown>, fence, ttl);
            });
            // Refused only when this lock ran out and a later holder wrote: read its index and add again.
            if (written) return;
          }
        });
      }
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.#model === 'Client' && isUrlClientId(id)) return clientMetadataDocuments?.find(id);
      const record = (await store.read(this.#namespace, id)) as StoredPayload | undefined;
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
      const saved = (await store.read(this.#namespace, id)) as StoredPayload | undefined;
      return saved?.generation ?? (await generationOf(store, accountId));
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const pointer = (await store.read(SESSION_UIDS, uid)) as { id?: unknown } | undefined;
      return typeof pointer?.id === 'string' ? this.find(pointer.id) : undefined;
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
      const record = (await store.read(this.#namespace, id)) as StoredPayload | undefined;
      if (record === undefined) return;
      const consumed: StoredPayload = { ...record, payload: { ...record.payload, consumed: nowSeconds() } };
      await store.write(
        this.#namespace,
        id,
        consumed as unknown as Record<string, unknown>,
        ttlUntil(record.expiresAt),
      );
    }

    async destroy(id: string): Promise<void> {
      await store.remove(this.#namespace, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await serialize(grantId, () =>
        holdingLock(store, GRANT_INDEX, grantId, INDEX_LOCK, async () => {
          const index = (await store.take(GRANT_INDEX, grantId)) as GrantIndex | undefined;
          for (const member of index?.members ?? []) await store.remove(namespaceOfModel(member.model), member.id);
        }),
      );
    }
  };
}
