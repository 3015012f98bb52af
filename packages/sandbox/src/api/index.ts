/**
 * The sandbox school's business API: the route table under `/api/v1/`, served behind the bearer
 * rules, described by `/openapi.json`, over an in-memory school that starts from a deterministic
 * seed or from `dataFile`.
 */
import type { AccessTokenVerifier } from '../access-token.js';
import type { Router } from '../http/router.js';
import { routeHandler } from './dispatch.js';
import { buildOpenApiDocument } from './openapi-document.js';
import { FILES_PATH, ROUTE_FAMILIES, serveStoredFile } from './routes/index.js';
import { seedSchool } from './seed/index.js';
import { loadStateFile, saveStateFile, SchoolStore } from './store/index.js';

export interface SchoolApiOptions {
  /** A JSON file that keeps the school's data across restarts. */
  dataFile?: string;
  /** The clock of the school; the seed is laid out relative to it. Defaults to the real time. */
  now?: () => Date;
}

export interface SchoolApi {
  mount(router: Router): void;
  /** Flushes state to `dataFile`, if any. */
  close(): Promise<void>;
}

export interface SchoolApiConfig {
  baseUrl: string;
  resource: string;
  verifier: AccessTokenVerifier;
  options: SchoolApiOptions;
}

export function createSchoolApi(config: SchoolApiConfig): SchoolApi {
  const { dataFile } = config.options;
  const now = config.options.now ?? (() => new Date());
  const initial = (dataFile === undefined ? undefined : loadStateFile(dataFile)) ?? seedSchool(now());
  const store = new SchoolStore(initial, {
    now,
    ...(dataFile === undefined ? {} : { onChange: (state) => saveStateFile(dataFile, state) }),
  });
  if (dataFile !== undefined) store.changed();
  const components = Object.assign({}, ...ROUTE_FAMILIES.map((family) => family.schemas));
  const dispatch = {
    protection: {
      verifier: config.verifier,
      resource: config.resource,
      resourceMetadataUrl: `${config.baseUrl}/.well-known/oauth-protected-resource`,
    },
    store,
    components,
    baseUrl: config.baseUrl,
  };
  const document = JSON.stringify(
    buildOpenApiDocument({ baseUrl: config.baseUrl, families: ROUTE_FAMILIES, timeZone: store.state.school.timezone }),
  );
  return {
    mount(router) {
      router.add(
        'GET',
        '/openapi.json',
        () => new Response(document, { headers: { 'content-type': 'application/json' } }),
      );
      router.add(
        'GET',
        FILES_PATH,
        serveStoredFile(() => store.state),
      );
      for (const family of ROUTE_FAMILIES) {
        for (const route of family.routes) router.add(route.method, route.path, routeHandler(route, dispatch));
      }
    },
    async close() {
      if (dataFile !== undefined) saveStateFile(dataFile, store.state);
    },
  };
}

export { ROUTE_FAMILIES } from './routes/index.js';
export { seedSchool } from './seed/index.js';
export { SCOPE_GROUPS, type ApiRoute } from './route.js';
