/**
 * docs/options.md, written from the command table (src/command-line/school-mcp-table.ts): each
 * command's forms and every option it takes, with its variable and help, in the table's order.
 * Pure, so the page can only say what the parser and `--help` say.
 */
import type { CommandLineTable } from '../../src/command-line/index.js';

/** Markdown table cells: a `|` inside one would end it. */
function cell(text: string): string {
  return text.replaceAll('|', '\\|');
}

function heading<Command extends string>(table: CommandLineTable<Command>, word: string | undefined): string {
  return word === undefined ? 'Serving' : `\`${table.program} ${word}\``;
}

export function optionsPage<Command extends string>(table: CommandLineTable<Command>): string {
  const lines = [
    '# Options',
    '',
    '<!-- Written from src/command-line/school-mcp-table.ts by test/docs/options-page.ts: change the',
    '     table, then `npx vitest run test/docs/options-page.test.ts -u` rewrites this page. -->',
    '',
    `Every command of \`${table.program}\` and every option it takes, from the one table the parser and`,
    `\`${table.program} --help\` (\`${table.program} COMMAND --help\` for a command) are built from. An option's`,
    'variable is read when the option is not given. A command line that cannot run as written (an',
    'unknown command or option, an option of another command, a bad value) exits with status 2 and',
    'says why on stderr (`CONFIG_INVALID`); a command that fails while running exits with 1.',
  ];
  for (const command of table.commands) {
    lines.push('', `## ${heading(table, command.word)}`, '', '```text');
    for (const form of command.forms) {
      const usage = `${table.program} ${form.form}`;
      lines.push(
        ...(usage.length < 40 ? [`${usage.padEnd(40)}${form.summary}`] : [usage, `${' '.repeat(40)}${form.summary}`]),
      );
    }
    lines.push('```', '', '| option | variable | meaning |', '|---|---|---|');
    for (const option of table.options.filter((candidate) => candidate.commands.includes(command.name))) {
      const flag = [
        option.short === undefined ? undefined : `-${option.short}`,
        `--${option.flag}${option.value === undefined ? '' : ` ${option.value}`}`,
      ]
        .filter((part) => part !== undefined)
        .map((part) => `\`${cell(part)}\``)
        .join(', ');
      const repeatable = option.multiple ? ' (repeatable)' : '';
      lines.push(
        `| ${flag} | ${option.env === undefined ? '' : `\`${option.env}\``} | ${cell(option.help)}${option.help.includes('repeatable') ? '' : repeatable} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
