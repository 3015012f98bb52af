/**
 * `createCallerEndpoints`, with the HTTP stack it needs loaded when hosted mode starts: a stdio
 * server never pays for it at start.
 */
import type { CallerEndpoints, CallerEndpointsOptions } from './caller-endpoints.js';

export async function openCallerEndpoints(options: CallerEndpointsOptions): Promise<CallerEndpoints> {
  const { createCallerEndpoints } = await import('./caller-endpoints.js');
  return createCallerEndpoints(options);
}
