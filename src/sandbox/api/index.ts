import type { AccessTokenVerifier } from '../access-token.js';
import type { Router } from '../http/router.js';

export interface SchoolApiOptions {
  /** A JSON file that keeps the school's data across restarts. */
  dataFile?: string;
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
  void config;
  return { mount() {}, close: async () => {} };
}
