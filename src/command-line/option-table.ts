/**
 * A command line described once, as a table of commands and options, from which come both the
 * `node:util` `parseArgs` configuration and the usage text. Pure: no process, no environment.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export interface OptionSpec<Command extends string> {
  /** The long name, without dashes: `school` for `--school`. */
  readonly flag: string;
  readonly type: 'string' | 'boolean';
  /** Repeatable: every occurrence is kept, in order. */
  readonly multiple?: boolean;
  readonly short?: string;
  /** What the value is called in the usage text: `URL` in `--school URL`. */
  readonly value?: string;
  /** The environment variable read when the flag is absent. */
  readonly env?: string;
  readonly help: string;
  /** The commands that take this option; any other command refuses it. */
  readonly commands: readonly Command[];
}

export interface CommandSpec<Command extends string> {
  readonly name: Command;
  /** The word that selects the command (or words: `store keys`); the command without a word runs when none is given. */
  readonly word?: string;
  /** Each way of writing the command (after the program's name) and what it does. */
  readonly forms: readonly CommandForm[];
}

interface CommandForm {
  readonly form: string;
  readonly summary: string;
}

export interface CommandLineTable<Command extends string> {
  readonly program: string;
  readonly commands: readonly CommandSpec<Command>[];
  readonly options: readonly OptionSpec<Command>[];
  /** How the command without a word is named in messages, e.g. "serving". */
  readonly defaultCommandLabel: string;
}

type OptionValues = Readonly<Record<string, string | boolean | readonly string[] | undefined>>;

export type ParsedCommandLine<Command extends string> =
  | { readonly kind: 'run'; readonly command: Command; readonly values: OptionValues }
  | { readonly kind: 'help'; readonly command: Command }
  | { readonly kind: 'version' }
  | { readonly kind: 'usage-error'; readonly command: Command | undefined; readonly message: string };

/** The options every command takes, whatever the table says: they answer before anything runs. */
const HELP = 'help';
const VERSION = 'version';

/** The `parseArgs` options of one command, or of every command at once. */
export function parseArgsOptions<Command extends string>(
  table: CommandLineTable<Command>,
  command?: Command,
): NonNullable<ParseArgsConfig['options']> {
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const option of table.options) {
    if (command !== undefined && !option.commands.includes(command)) continue;
    options[option.flag] = {
      type: option.type,
      ...(option.multiple ? { multiple: true } : {}),
      ...(option.short === undefined ? {} : { short: option.short }),
    };
  }
  return options;
}

export function commandNamed<Command extends string>(
  table: CommandLineTable<Command>,
  name: Command,
): CommandSpec<Command> {
  const spec = table.commands.find((command) => command.name === name);
  if (spec === undefined) throw new Error(`the command table has no command ${name}`);
  return spec;
}

/**
 * The command a word selects and what it was given. A flag of another command is refused with
 * the commands that take it; an unknown word is an unknown command.
 */
export function parseCommandLine<Command extends string>(
  table: CommandLineTable<Command>,
  argv: readonly string[],
): ParsedCommandLine<Command> {
  const defaultCommand = table.commands.find((command) => command.word === undefined);
  if (defaultCommand === undefined) throw new Error('the command table has no command without a word');
  const [first] = argv;
  let command = defaultCommand;
  let args = [...argv];
  if (first !== undefined && !first.startsWith('-')) {
    const named = commandOfWords(table, argv);
    if (named === undefined) {
      const words = table.commands.flatMap((candidate) => (candidate.word === undefined ? [] : [candidate.word]));
      const given = argv
        .slice(0, Math.max(1, ...words.map((word) => word.split(' ').length)))
        .filter((arg) => !arg.startsWith('-'));
      return usageError<Command>(
        undefined,
        `unknown command ${JSON.stringify(given.join(' '))}; the commands are ${words.join(', ')}`,
      );
    }
    command = named;
    args = argv.slice(named.word!.split(' ').length);
  }

  // Every flag of the table is parsed, so that one given to the wrong command is named as such.
  const { values, tokens } = parseArgs({
    args,
    options: parseArgsOptions(table),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const byFlag = new Map(table.options.map((option) => [option.flag, option]));
  const offered = new Set<string>();
  for (const token of tokens) {
    if (token.kind === 'positional') {
      return usageError(
        command.name,
        `${programWith(table, command)} takes no argument ${JSON.stringify(token.value)}`,
      );
    }
    if (token.kind !== 'option') continue;
    const option = byFlag.get(token.name);
    if (option === undefined)
      return usageError(command.name, `Unknown option ${token.rawName} for ${programWith(table, command)}`);
    if (option.type === 'string' && token.value === undefined)
      return usageError(command.name, `${token.rawName} needs a value`);
    // A value that looks like a flag is most likely a forgotten value; `--flag=-x` says it is meant.
    // A lone `-` is no flag: it names a standard stream (`--audit-log -`).
    if (
      option.type === 'string' &&
      token.inlineValue === false &&
      token.value !== '-' &&
      token.value?.startsWith('-')
    ) {
      return usageError(
        command.name,
        `${token.rawName} needs a value, not ${JSON.stringify(token.value)} (write ${token.rawName}=${token.value} if you mean it)`,
      );
    }
    if (option.type === 'boolean' && token.value !== undefined)
      return usageError(command.name, `${token.rawName} takes no value`);
    offered.add(option.flag);
  }
  if (offered.has(HELP)) return { kind: 'help', command: command.name };
  if (offered.has(VERSION)) return { kind: 'version' };
  for (const flag of offered) {
    const takers = table.options.filter((option) => option.flag === flag).flatMap((option) => option.commands);
    if (!takers.includes(command.name)) {
      return usageError(
        command.name,
        `--${flag} goes with ${takers.map((taker) => commandLabel(table, taker)).join(' and ')} only`,
      );
    }
  }
  return { kind: 'run', command: command.name, values: values as OptionValues };
}

/** The command whose word (one word, or several such as `store keys`) starts `argv`; the longest such word wins. */
function commandOfWords<Command extends string>(
  table: CommandLineTable<Command>,
  argv: readonly string[],
): CommandSpec<Command> | undefined {
  let found: CommandSpec<Command> | undefined;
  for (const candidate of table.commands) {
    const parts = candidate.word?.split(' ');
    if (parts === undefined || !parts.every((part, index) => argv[index] === part)) continue;
    if (found === undefined || parts.length > found.word!.split(' ').length) found = candidate;
  }
  return found;
}

/** "the login command", or the label of the command without a word. */
function commandLabel<Command extends string>(table: CommandLineTable<Command>, name: Command): string {
  const word = commandNamed(table, name).word;
  return word === undefined ? table.defaultCommandLabel : `the ${word} command`;
}

function programWith<Command extends string>(table: CommandLineTable<Command>, command: CommandSpec<Command>): string {
  return command.word === undefined ? table.program : `${table.program} ${command.word}`;
}

function usageError<Command extends string>(command: Command | undefined, message: string): ParsedCommandLine<Command> {
  return { kind: 'usage-error', command, message };
}
