/**
 * Tokens of a tool list, counted with `js-tiktoken` (the JavaScript port of OpenAI's tiktoken,
 * with its `o200k_base` ranks bundled, so counting needs no network). It is pure JavaScript and
 * runs on Node 20. No host's own tokenizer is public for every model, so token counts are
 * comparable between servers rather than exact for a given model. The tokenizer is a pinned
 * devDependency of the project, so a plain clone's `npm install` brings it and every run counts
 * tokens; a missing tokenizer fails the import, and with it the run.
 */
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';

export const TOKENIZER = 'js-tiktoken 1.0.21, o200k_base';

export type TokenCounter = (text: string) => number;

export function loadTokenCounter(): TokenCounter {
  const encoder = new Tiktoken(o200kBase);
  return (text) => encoder.encode(text).length;
}
