/**
 * A published JSON Schema (draft-07) compiled the strict way: formats are checked, not skipped,
 * and the documentation-only `example` keyword some schemas carry is known rather than an error.
 */
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { readFileSync } from 'node:fs';

// ajv-formats is CommonJS with `exports.default`; under NodeNext the default import is the module.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export type SchemaCheck = (document: unknown) => readonly ErrorObject[];

export function compileSchemaFile(path: string): SchemaCheck {
  const ajv = new Ajv({ allErrors: true });
  addFormats(ajv);
  ajv.addVocabulary(['example']);
  const validate = ajv.compile(JSON.parse(readFileSync(path, 'utf8')) as object);
  return (document) => (validate(document) ? [] : [...(validate.errors ?? [])]);
}

export function readJson<T = any>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}
