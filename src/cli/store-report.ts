/**
 * `school-mcp store keys` and `store reseal`: the grant store's records counted by key, as an
 * operator reads it in the middle of a key rotation, with the next step. Keys are named by their
 * fingerprint (the id stored with each record), namespaces by name; no record's name or content
 * is ever shown. Pure.
 */

/** The census of the store, as `grant-store` takes it. */
interface CensusInput {
  readonly keys: readonly {
    readonly keyId: string;
    readonly records: number;
    readonly current: boolean;
    readonly given: boolean;
  }[];
  readonly underOldKeys: number;
  readonly unreadable: number;
  readonly unreadableByNamespace: Readonly<Record<string, number>>;
  readonly expired: number;
}

export interface StoreReportInput {
  readonly location: string;
  readonly before: CensusInput;
  readonly after?: CensusInput;
  readonly resealed: number;
  readonly changedMeanwhile: number;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function keyLines(census: CensusInput): string[] {
  return census.keys.map((key) => {
    const role = key.current ? 'current key' : key.given ? 'old key' : 'key not given';
    return `  ${role} ${key.keyId}: ${plural(key.records, 'record')}`;
  });
}

function unreadableLine(census: CensusInput): string[] {
  if (census.unreadable === 0) return [];
  const where = Object.entries(census.unreadableByNamespace)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([namespace, count]) => `${namespace} ${count}`)
    .join(', ');
  return [
    `${plural(census.unreadable, 'record')} cannot be read with any key given (${where}): they read as absent, so their people sign in again; put their key back after the current one to keep them.`,
  ];
}

/** What a `store …` command found or did. */
export type StoreCommandOutcome =
  | { readonly kind: 'census'; readonly report: StoreReportInput }
  | { readonly kind: 'secrets-reset'; readonly outcome: 'removed' | 'readable' | 'absent' };

const SECRETS_RESET = {
  removed:
    "removed the authorization server's secrets record, which no key given opens: the next start makes new ones. Browser sessions at school-mcp's pages end (sign-ins under way start over) and step-up links already sent stop working; MCP clients' tokens do not depend on them.",
  readable:
    "the authorization server's secrets record opens with the keys given: nothing was reset (drop an old key only after `school-mcp store reseal`).",
  absent: 'there is no secrets record: the next start makes one.',
} as const;

/**
 * Pure: what to print and the exit code. A reseal that left records under an old key exits 1, and
 * so does a reset that found readable secrets: a script must not drop a key, or go on, after either.
 */
export function storeCommandAnswer(
  outcome: StoreCommandOutcome,
  json: boolean,
): { readonly text: string; readonly exitCode: number } {
  if (outcome.kind === 'secrets-reset')
    return { text: `${SECRETS_RESET[outcome.outcome]}\n`, exitCode: outcome.outcome === 'readable' ? 1 : 0 };
  const { report } = outcome;
  const text = json ? `${JSON.stringify(report, null, 2)}\n` : `${formatStoreReport(report).join('\n')}\n`;
  return { text, exitCode: report.after !== undefined && report.after.underOldKeys > 0 ? 1 : 0 };
}

/** Pure: the report as lines of text. */
export function formatStoreReport(report: StoreReportInput): string[] {
  const lines = [`grant store: ${report.location}`];
  const resealing = report.after !== undefined;
  lines.push(...keyLines(report.before));
  if (report.before.expired > 0) lines.push(`  expired, left to the sweep: ${report.before.expired}`);
  if (resealing) {
    const meanwhile =
      report.changedMeanwhile === 0
        ? ''
        : ` (${plural(report.changedMeanwhile, 'record')} changed meanwhile, left as its writer left it)`;
    lines.push(`resealed ${plural(report.resealed, 'record')} with the current key${meanwhile}; counted again:`);
    lines.push(...keyLines(report.after!));
  }
  const final = report.after ?? report.before;
  lines.push(...unreadableLine(final));
  if (final.underOldKeys > 0) {
    lines.push(
      resealing
        ? `${plural(final.underOldKeys, 'record')} still under an old key: run \`school-mcp store reseal\` again before dropping a key.`
        : `${plural(final.underOldKeys, 'record')} under an old key: run \`school-mcp store reseal\` before dropping a key.`,
    );
  } else {
    lines.push('no record that opens is under an old key: the old keys may be dropped (keep the current key first).');
  }
  return lines;
}
