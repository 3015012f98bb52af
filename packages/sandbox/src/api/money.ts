/** Money on the wire: integer minor units (cents) and an ISO 4217 currency code. */
import { s } from './schema.js';
import { CURRENCIES } from './store/index.js';

export const currency = s.enumOf(CURRENCIES, 'ISO 4217 currency code.', { examples: ['USD'] });

export function cents(description: string, example = 4900) {
  return s.integer(`${description} In cents (minor units).`, { minimum: 0, maximum: 100_000_000, example });
}
