/**
 * The host configs the documentation publishes, read out of its Markdown: every server entry of a
 * ```json block (under `mcpServers`, or VS Code's `servers`) and every `claude mcp add` line of a
 * ```sh block, each made runnable on this machine by putting the clone and a school in place of
 * the placeholders the pages use. Pure: reading the pages and starting servers is the tests' part.
 */

/** The clone's absolute path as the pages write it. */
const CLONE_PLACEHOLDER = '/abs/path/to/school-mcp';
/** A real school's URL as the pages write it. */
const SCHOOL_PLACEHOLDER = 'https://your-school.example';

export interface StdioEntry {
  readonly kind: 'stdio';
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
}

export interface HttpEntry {
  readonly kind: 'http';
  readonly name: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

export type HostEntry = StdioEntry | HttpEntry;

function blocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(new RegExp(String.raw`^\`\`\`${language}\n([\s\S]*?)^\`\`\``, 'gm'))].map(
    (match) => match[1]!,
  );
}

function stringRecord(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

function entryOf(name: string, value: unknown): HostEntry | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const entry = value as Record<string, unknown>;
  if (typeof entry['command'] === 'string') {
    const args = Array.isArray(entry['args'])
      ? entry['args'].filter((arg): arg is string => typeof arg === 'string')
      : [];
    return { kind: 'stdio', name, command: entry['command'], args };
  }
  // Windsurf names the address `serverUrl`; every other host `url`.
  const url = entry['url'] ?? entry['serverUrl'];
  if (typeof url === 'string') return { kind: 'http', name, url, headers: stringRecord(entry['headers']) };
  return undefined;
}

/** Every server entry of the page's JSON blocks. A block that is not JSON throws: a published config must parse. */
export function jsonEntries(markdown: string): HostEntry[] {
  const found: HostEntry[] = [];
  for (const block of blocks(markdown, 'json')) {
    const config = JSON.parse(block) as Record<string, unknown>;
    const servers = config['mcpServers'] ?? config['servers'];
    if (typeof servers !== 'object' || servers === null) continue;
    for (const [name, value] of Object.entries(servers)) {
      const entry = entryOf(name, value);
      if (entry !== undefined) found.push(entry);
    }
  }
  return found;
}

/** The `claude mcp add NAME -- COMMAND ARGS...` lines of the page's shell blocks, split on spaces. */
export function claudeAddCommands(markdown: string): StdioEntry[] {
  const found: StdioEntry[] = [];
  for (const block of blocks(markdown, 'sh')) {
    for (const line of block.split('\n')) {
      const match = /^claude mcp add (\S+) -- (.+?)\s*(?:#.*)?$/.exec(line.trim());
      if (match === null) continue;
      const [command, ...args] = match[2]!.split(/\s+/);
      found.push({ kind: 'stdio', name: match[1]!, command: command!, args });
    }
  }
  return found;
}

/** The entry with the clone's path and the school's URL in place of the placeholders. */
export function runnable<Entry extends HostEntry>(
  entry: Entry,
  places: { readonly clone: string; readonly school: string },
): Entry {
  const fill = (text: string) =>
    text.replaceAll(CLONE_PLACEHOLDER, places.clone).replaceAll(SCHOOL_PLACEHOLDER, places.school);
  if (entry.kind === 'stdio') return { ...entry, command: fill(entry.command), args: entry.args.map(fill) };
  return entry;
}

/**
 * An HTTP entry aimed at a server listening on `endpoint` with `secret`: its host and port
 * replaced, and the secret put where the page has a host's variable (`${NAME}`, `${env:NAME}`,
 * `${input:id}`), as the host would.
 */
export function httpTarget(
  entry: HttpEntry,
  endpoint: string,
  secret: string,
): { url: string; headers: Record<string, string> } {
  const url = new URL(entry.url);
  const actual = new URL(endpoint);
  url.host = actual.host;
  const headers = Object.fromEntries(
    Object.entries(entry.headers).map(([name, value]) => [
      name,
      value.replace(/\$\{(?:env:|input:)?[\w-]+\}/g, secret),
    ]),
  );
  return { url: url.href, headers };
}
