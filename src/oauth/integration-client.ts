/**
 * The school as seen by a registered integration (a confidential client with a fixed callback,
 * issued by the school, not registered here): the same discovery and metadata checks as every
 * other sign-in (MD-01…MD-08, AZ-03), then a configuration that authenticates with
 * `client_secret_post`.
 */
import type * as client from 'openid-client';
import type { Logger } from '../log.js';
import { discoverSchool } from './discovery.js';
import { assertPkceS256 } from './metadata.js';
import { clientConfiguration } from './registration.js';
import { createSchoolFetch } from './school-fetch.js';
import { parseSchoolUrl } from './school-url.js';

export interface Integration {
  readonly schoolUrl: URL;
  readonly clientId: string;
  readonly clientSecret: string;
}

export async function discoverIntegration(integration: Integration, logger: Logger): Promise<client.Configuration> {
  const target = parseSchoolUrl(integration.schoolUrl);
  const fetch = createSchoolFetch();
  const metadata = await discoverSchool(target, fetch, logger);
  assertPkceS256(metadata.server);
  return await clientConfiguration(
    { target, metadata, fetch },
    {
      kind: 'static',
      clientId: integration.clientId,
      clientSecret: integration.clientSecret,
      redirectUris: [],
      registeredAt: 0,
    },
  );
}
