/**
 * What `--store` names: a directory, or a Redis server as `redis://HOST:PORT/DB` (TLS:
 * `rediss://`). The URL may not carry a password: a command line is readable by every local user
 * (ps, /proc), so the password comes from SCHOOL_MCP_REDIS_PASSWORD only. Pure.
 */

export interface RedisStoreAddress {
  /** The URL without userinfo, as node-redis takes it. */
  readonly url: string;
  readonly tls: boolean;
  readonly database: number;
}

type StoreLocation =
  | { readonly kind: 'directory'; readonly dir: string }
  | { readonly kind: 'redis'; readonly address: RedisStoreAddress };

export type StoreLocationParse =
  | { readonly ok: true; readonly location: StoreLocation }
  | { readonly ok: false; readonly reason: string };

/** Redis's default number of databases is 16; a bigger index is refused by the server anyway. */
const MAX_DATABASE = 15;

export function isRedisStoreUrl(text: string): boolean {
  return /^rediss?:\/\//i.test(text);
}

export function parseStoreLocation(text: string): StoreLocationParse {
  if (!isRedisStoreUrl(text)) return { ok: true, location: { kind: 'directory', dir: text } };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: `${text} is not a URL` };
  }
  if (url.username !== '' || url.password !== '') {
    return {
      ok: false,
      reason:
        'the Redis URL carries a user or password, which every local user could read on the command line: give the password in SCHOOL_MCP_REDIS_PASSWORD instead',
    };
  }
  if (url.hostname === '') return { ok: false, reason: 'the Redis URL names no host' };
  if (url.search !== '' || url.hash !== '')
    return { ok: false, reason: 'the Redis URL takes no query or fragment: redis://HOST:PORT/DB' };
  const path = url.pathname.replace(/^\//, '');
  if (path !== '' && !/^\d{1,2}$/.test(path))
    return { ok: false, reason: `the Redis URL's path is a database number, not ${JSON.stringify(url.pathname)}` };
  const database = path === '' ? 0 : Number(path);
  if (database > MAX_DATABASE)
    return { ok: false, reason: `the Redis database is 0 to ${MAX_DATABASE}, not ${database}` };
  const tls = url.protocol === 'rediss:';
  const port = url.port === '' ? '6379' : url.port;
  return {
    ok: true,
    location: {
      kind: 'redis',
      address: { url: `${tls ? 'rediss' : 'redis'}://${url.hostname}:${port}/${database}`, tls, database },
    },
  };
}
