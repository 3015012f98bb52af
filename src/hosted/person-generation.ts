/**
 * A person's sign-in generation: the rule that ends every MCP client of one person at once. The
 * storage adapter stamps each MCP grant, when it first saves it, with its person's generation at
 * that moment; ending the person's sign-in (the `sign_out` tool of any client, a grant ended by a
 * reused code or refresh token or a revoked refresh token, the school refusing the refresh of
 * their school grant) writes a fresh random generation, and from then on a grant stamped with
 * another one is not found. The engine looks the grant up on every use of its tokens (the bearer
 * check at `/mcp`, the code and refresh grants at the token endpoint, the consent check at
 * authorization), so every token made before the end is refused: 401 with the Bearer challenge at
 * `/mcp`, `invalid_grant` at the token endpoint, and the client signs in again by itself. Grants
 * made after the end carry the new generation and work.
 *
 * Clock edges: the generation is a random value compared for equality, never a time. A token
 * issued in the same second as the sign-out, or by an instance whose clock runs ahead, is judged
 * by the generation its grant read from the store when it was made, not by a timestamp: a grant
 * saved before the new generation was written is ended, one saved after it is not. The record is
 * in the store, so every instance on it sees the end at once and after a restart; it never
 * expires, because a grant made before the end must stay ended for as long as it may live, and an
 * expiry would end the grants made after it.
 * @see SECURITY.md HOST-33
 */
import { randomBytes } from 'node:crypto';
import { isText, objectWith, readRecord, type GrantStore, type RecordKind } from '../grant-store/index.js';

const PERSON_GENERATIONS = 'person-generation';
/** The generation of a person whose sign-in was never ended, and of grants stamped before stamps existed. */
const FIRST_GENERATION = '';

/**
 * A person's generation as the store gives it back (ST-17). One of another shape reads as absent,
 * so as the first generation: grants stamped with an ended one stay ended.
 */
const PERSON_GENERATION_RECORD: RecordKind<{ readonly id: string }> = {
  namespace: PERSON_GENERATIONS,
  check: objectWith({ id: isText }),
};

export async function generationOf(store: GrantStore, sub: string): Promise<string> {
  return (await readRecord(store, PERSON_GENERATION_RECORD, sub))?.id ?? FIRST_GENERATION;
}

/** Ends every MCP grant of the person made until now, on every instance. */
export async function endGeneration(store: GrantStore, sub: string): Promise<void> {
  await store.write(PERSON_GENERATIONS, sub, { id: randomBytes(18).toString('base64url') });
}

/** Pure: whether a grant stamped with `stamp` belongs to the person's `current` generation. */
export function isCurrentGeneration(stamp: string | undefined, current: string): boolean {
  return (stamp ?? FIRST_GENERATION) === current;
}
