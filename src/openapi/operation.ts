/**
 * One API operation as the rest of the bridge sees it: everything the executor needs to turn tool
 * arguments into an HTTP request, and everything the server needs to list it as a tool. Built once
 * per catalogue from the OpenAPI document; tool names are keys, never parsed back.
 */

/** A JSON Schema (2020-12) object, fully inlined: no `$ref` to the OpenAPI document remains. */
export type JsonSchema = Record<string, unknown>;

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options' | 'trace';

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

export interface OperationParameter {
  /** The parameter's name on the wire. */
  readonly name: string;
  /** The property that carries it in the tool's input (differs from `name` after a collision). */
  readonly argument: string;
  readonly in: ParameterLocation;
  readonly required: boolean;
  readonly schema: JsonSchema;
  /** OpenAPI serialisation; defaults per location (form/simple) when absent. */
  readonly style?: string;
  readonly explode?: boolean;
  readonly allowReserved?: boolean;
}

export interface OperationBody {
  /** The media type sent, e.g. `application/json`, `multipart/form-data`. */
  readonly contentType: string;
  readonly required: boolean;
  readonly schema: JsonSchema;
  /**
   * `merged`: an object body whose properties are top-level tool arguments (see `propertyArguments`).
   * `wrapped`: the whole body is one tool argument named `argument` (non-object bodies, or collisions).
   */
  readonly mode: 'merged' | 'wrapped';
  /** With `wrapped`: the tool argument that holds the body. */
  readonly argument?: string;
  /** With `merged`: tool argument name -> body property name. */
  readonly propertyArguments?: Readonly<Record<string, string>>;
  /** Body properties (by body property name) that are files, given as a file argument (`FILE_ARGUMENT_SCHEMA` in declared-body.ts). */
  readonly fileProperties?: readonly string[];
  /**
   * With `wrapped`: the argument is a file argument whose decoded bytes are the whole body
   * (e.g. `application/octet-stream` uploads), not a value to serialise.
   */
  readonly file?: boolean;
}

export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

export interface Operation {
  /** The MCP tool name: `^[a-zA-Z0-9_-]+$`, unique, stable across runs. */
  readonly toolName: string;
  readonly operationId: string | undefined;
  readonly method: HttpMethod;
  /** The path template exactly as the document has it, e.g. `/api/v1/courses/{course_id}`. */
  readonly pathTemplate: string;
  readonly title: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly parameters: readonly OperationParameter[];
  readonly body: OperationBody | undefined;
  /**
   * OAuth scope alternatives from `security`: the call is authorised when every scope of any one
   * alternative is granted. `[]` means the operation needs no token (public); `[[]]` means it
   * needs a signed-in token but names no scope (e.g. an `http` bearer scheme).
   */
  readonly scopeAlternatives: readonly (readonly string[])[];
  /** The alternative to ask for when none is granted yet (least privilege). `[]` when public. */
  readonly requiredScopes: readonly string[];
  /**
   * True when the document also lets the operation be called without a token (an empty `{}`
   * security alternative beside scoped ones): the school then serves its public view. The
   * scoped alternatives are kept, so the bridge signs in and administrators see everything.
   */
  readonly anonymousAccess?: boolean;
  /** The toolset (scope group, `public`, or a tag when the document has no scopes). */
  readonly toolset: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema | undefined;
  readonly annotations: ToolAnnotations;
  readonly deprecated: boolean;
}
