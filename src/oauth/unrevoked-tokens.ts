/**
 * RV-03: a refresh token whose revocation the school did not confirm waits in the store (0600,
 * never used for API calls) and is sent again when a session next starts, not only at the next
 * sign-out; it leaves the store once the school confirms.
 */
import type * as client from 'openid-client';
import type { Logger } from '../log.js';
import type { SchoolMetadata } from './discovery.js';
import { revokeAll, type RevocationOptions } from './revocation.js';
import type { PendingRevocation, StoreRecord, StoredClient } from './store-record.js';
import type { TokenStore } from './token-store.js';

export interface UnrevokedRetryOptions extends Omit<RevocationOptions, 'logger'> {
  store: TokenStore;
  logger: Logger;
  /** A pre-registered client, which may have obtained the tokens instead of the stored one. */
  staticClient: StoredClient | undefined;
  configuration(stored: StoredClient): Promise<client.Configuration>;
}

export interface UnrevokedRetry {
  /** Starts the retry once per session, in the background, when the school's metadata is known. */
  start(metadata: SchoolMetadata): void;
  /** Resolves when a started retry has finished (for a clean close). */
  settled(): Promise<void>;
}

/** The record without the items the school confirmed; items added meanwhile stay. Pure. */
function withoutConfirmed(record: StoreRecord, confirmed: readonly PendingRevocation[]): StoreRecord {
  const done = new Set(confirmed.map((item) => item.token));
  const left = (record.pendingRevocation ?? []).filter((item) => !done.has(item.token));
  const next = { ...record };
  if (left.length > 0) next.pendingRevocation = left;
  else delete next.pendingRevocation;
  return next;
}

export function createUnrevokedRetry(options: UnrevokedRetryOptions): UnrevokedRetry {
  let running: Promise<void> | undefined;

  async function retry(metadata: SchoolMetadata): Promise<void> {
    const record = await options.store.read();
    const pending = record.pendingRevocation ?? [];
    if (pending.length === 0 || !metadata.server.revocation_endpoint) return;
    const clientFor = (clientId: string) =>
      [options.staticClient, record.client].find((stored) => stored?.clientId === clientId);
    const outcome = await revokeAll(
      pending,
      (clientId) => {
        const stored = clientFor(clientId);
        return stored ? options.configuration(stored) : Promise.resolve(undefined);
      },
      options,
    );
    if (outcome.confirmed.length > 0)
      await options.store.update((current) => withoutConfirmed(current, outcome.confirmed));
    if (outcome.unconfirmed.length > 0) {
      options.logger.warn(
        'an earlier sign-out is still not confirmed by the school; the token may stay valid until it expires',
        {
          count: outcome.unconfirmed.length,
        },
      );
    } else {
      options.logger.info('the school confirmed the revocation left over from an earlier sign-out');
    }
  }

  return {
    start(metadata) {
      running ??= retry(metadata).catch((error: unknown) => {
        options.logger.warn('the revocation left over from an earlier sign-out could not be retried', { error });
      });
    },
    async settled() {
      await running;
    },
  };
}
