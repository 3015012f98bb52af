/**
 * The usage text, written from the same table as the parser's configuration, so that every flag
 * the parser takes is listed, with its value, its environment variable and the commands it
 * belongs to. Pure.
 */
import { commandNamed, type CommandLineTable, type OptionSpec } from './option-table.js';

const WIDTH = 100;
const FORM_COLUMN = 41;
const OPTION_COLUMN = 28;

/** The program's help: every command's forms, then the options of the command without a word. */
export function programUsage<Command extends string>(table: CommandLineTable<Command>): string {
  const defaultCommand = table.commands.find((command) => command.word === undefined)!;
  return [
    'usage:',
    ...table.commands.flatMap((command) => formLines(table.program, command.forms)),
    '',
    `options for ${table.defaultCommandLabel} (each command lists its own: \`${table.program} COMMAND --help\`):`,
    ...optionLines(table.options.filter((option) => option.commands.includes(defaultCommand.name))),
    '',
  ].join('\n');
}

/** One command's help: its forms and every option it takes. */
export function commandUsage<Command extends string>(table: CommandLineTable<Command>, name: Command): string {
  const command = commandNamed(table, name);
  if (command.word === undefined) return programUsage(table);
  return [
    'usage:',
    ...formLines(table.program, command.forms),
    '',
    'options:',
    ...optionLines(table.options.filter((option) => option.commands.includes(name))),
    '',
  ].join('\n');
}

function formLines(program: string, forms: readonly { form: string; summary: string }[]): string[] {
  return forms.flatMap(({ form, summary }) => columns(`  ${program} ${form}`, wordsOf(summary), FORM_COLUMN));
}

function optionLines(options: readonly OptionSpec<string>[]): string[] {
  return options.flatMap((option) => {
    const name = `${option.short === undefined ? '' : `-${option.short}, `}--${option.flag}${option.value === undefined ? '' : ` ${option.value}`}`;
    // The variable stays on one line with its "env", where it can be read and copied.
    return columns(
      `  ${name}`,
      [...wordsOf(option.help), ...(option.env === undefined ? [] : [`(env ${option.env})`])],
      OPTION_COLUMN,
    );
  });
}

/** `left` then `words` wrapped from `column`; they start on the next line when `left` is too wide. */
function columns(left: string, words: readonly string[], column: number): string[] {
  const lines = wrap(words, WIDTH - column);
  const indent = ' '.repeat(column);
  const [head, ...tail] = lines;
  const first = left.length < column - 1 ? [`${left.padEnd(column)}${head ?? ''}`] : [left, `${indent}${head ?? ''}`];
  return [...first, ...tail.map((line) => `${indent}${line}`)];
}

function wordsOf(text: string): string[] {
  return text.split(/\s+/).filter((part) => part !== '');
}

function wrap(words: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}
