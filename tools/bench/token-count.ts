/**
 * Tokens of a tool list, counted with `js-tiktoken` (the JavaScript port of OpenAI's tiktoken,
 * with its `o200k_base` ranks bundled, so counting needs no network). It is pure JavaScript and
 * runs on Node 20. No host's own tokenizer is public for every model, so token counts are
 * comparable between servers rather than exact for a given model. The tokenizer comes from the
 * bench's own manifest, or else from the project's devDependencies (the test suite checks the
 * agent session's token aims with it); without either, tokens are left out.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { BENCH_PACKAGE_DIR } from './paths.js';

export const TOKENIZER = 'js-tiktoken 1.0.21, o200k_base';

export type TokenCounter = (text: string) => number;

interface Tiktoken {
  encode(text: string): number[];
}

export function loadTokenCounter(): TokenCounter | undefined {
  const require = createRequire(join(BENCH_PACKAGE_DIR, 'package.json'));
  let Encoder: new (ranks: unknown) => Tiktoken;
  let ranks: unknown;
  try {
    Encoder = (require('js-tiktoken/lite') as { Tiktoken: new (ranks: unknown) => Tiktoken }).Tiktoken;
    const module = require('js-tiktoken/ranks/o200k_base') as { default?: unknown };
    ranks = module.default ?? module;
  } catch {
    return undefined;
  }
  const encoder = new Encoder(ranks);
  return (text) => encoder.encode(text).length;
}
