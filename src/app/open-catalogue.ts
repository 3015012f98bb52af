/**
 * The school's API document as the user's selection of tools: loaded (from the school, a file or
 * the cache), built into a catalogue, narrowed by the config, and planned into listed tools and
 * discovery. No sign-in: the document's GET is anonymous.
 */
import type { Config } from '../config/index.js';
import type { DocumentScopes } from '../consent/index.js';
import { documentFetch } from '../network/index.js';
import {
  consentScopeFacts,
  fitListedSchemas,
  loadCatalogue,
  selectOperations,
  type LoadedCatalogue,
  type ToolCatalogue,
} from '../openapi/index.js';
import { planTools, type ToolPlan, type ToolsetChoice } from '../server/index.js';

export interface OpenedCatalogue {
  readonly loaded: LoadedCatalogue['loaded'];
  /** The whole catalogue, before the user's selection. */
  readonly fullCatalogue: ToolCatalogue;
  /** The user's selection: read-only, toolsets, exact lists. */
  readonly catalogue: ToolCatalogue;
  readonly choice: ToolsetChoice;
  /** The listed tools within the tool list's budget (API-11). */
  readonly plan: ToolPlan;
  /** What fitting the listed tools into that budget found. */
  readonly listWarnings: readonly string[];
  /**
   * Keeps the catalogue in the config directory for the next start (never throws); to be run
   * once serving has started. Absent when it came from there or there is no cache.
   */
  readonly storeCatalogue: (() => Promise<void>) | undefined;
}

export interface OpenCatalogueOptions {
  readonly config: Config;
  /** Absent when the document is a file and no school is named (`school-mcp tools --openapi FILE`). */
  readonly schoolUrl: URL | undefined;
  /** Where the last good copy of the document is kept; none is kept without it. */
  readonly configDir: string | undefined;
  /** Receives what converting a tool's schemas finds, which happens after the build. */
  readonly onSchemaWarning?: (message: string) => void;
  /** school-mcp's version: with a config directory, the built catalogue is cached under it. */
  readonly version?: string | undefined;
  /** What the catalogue cache did, none of it an error. */
  readonly onDebug?: (message: string) => void;
}

/**
 * `loadDocument` checks the school URL even for a file, which has no origin to compare with; a
 * file read without a school is checked against this loopback origin, which it never reaches.
 */
const NO_SCHOOL = 'http://127.0.0.1/';

export async function openCatalogue({
  config,
  schoolUrl,
  configDir,
  onSchemaWarning,
  version,
  onDebug,
}: OpenCatalogueOptions): Promise<OpenedCatalogue> {
  // The unauthenticated document GET goes over Node's own http client (the network part's `http-stack.ts`).
  const {
    loaded,
    catalogue: fullCatalogue,
    store,
  } = await loadCatalogue({
    load: {
      schoolUrl: schoolUrl?.href ?? NO_SCHOOL,
      ...(config.openapiSource === undefined ? {} : { openapi: config.openapiSource }),
      fetch: documentFetch,
      ...(configDir === undefined ? {} : { configDirectory: configDir }),
    },
    catalogue: {
      ...(schoolUrl === undefined ? {} : { schoolUrl: schoolUrl.href }),
      ...(onSchemaWarning === undefined ? {} : { onSchemaWarning }),
    },
    version,
    debug: onDebug ?? (() => undefined),
  });
  const choice: ToolsetChoice = config.toolsets ?? { mode: 'default' };
  const catalogue = selectOperations(fullCatalogue, {
    ...(choice.mode === 'toolsets' ? { toolsets: choice.toolsets } : {}),
    readOnly: config.readOnly,
    ...(config.tools === undefined ? {} : { tools: config.tools }),
    excludeTools: config.excludeTools,
  });
  const planned = planTools(catalogue, choice, config.tools !== undefined);
  const listed = fitListedSchemas(planned.direct);
  return {
    loaded,
    fullCatalogue,
    catalogue,
    choice,
    plan: { ...planned, direct: listed.operations },
    listWarnings: listed.warnings,
    storeCatalogue: store,
  };
}

/**
 * The document's scope facts for consent. The toolsets of the listed tools are the enabled ones:
 * their reads are what the first consent asks for (`consent-policy.ts`), at a first call or at
 * `school-mcp login`.
 */
export function enabledScopeFacts({
  fullCatalogue,
  plan,
}: Pick<OpenedCatalogue, 'fullCatalogue' | 'plan'>): DocumentScopes {
  return consentScopeFacts(fullCatalogue.operations, new Set(plan.direct.map((operation) => operation.toolset)));
}
