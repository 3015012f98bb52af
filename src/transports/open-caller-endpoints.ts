/**
 * `createCallerEndpoints`, with the HTTP stack it needs loaded when hosted mode starts: a stdio
 * server never pays for it at start.
 */
import type { CallerEndpoints } from './caller-endpoints.js';

export async function openCallerEndpoints(options: { readonly maxCallers: number; readonly onerror: (error: Error) => void }): Promise<CallerEndpoints> {
  const { createCallerEndpoints } = await import('./caller-endpoints.js');
  return createCallerEndpoints(options);
}
