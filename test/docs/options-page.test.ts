/**
 * docs/options.md is the command table written out: a flag, a variable or a help text that the
 * table changes and the page does not fails here, and so does an edit of the page by hand.
 * `-u` rewrites the page from the table; CI never does.
 */
import { describe, expect, it } from 'vitest';
import { SCHOOL_MCP_COMMAND_LINE as TABLE, type CommandLineTable } from '../../src/command-line/index.js';
import { optionsPage } from './options-page.js';

describe('docs/options.md', () => {
  it('is the command table, every command with every option it takes', async () => {
    await expect(optionsPage(TABLE)).toMatchFileSnapshot('../../docs/options.md');
  });

  it('names each option of a command once, with its variable, and escapes the cells', () => {
    const table: CommandLineTable<'serve' | 'login'> = {
      program: 'p',
      defaultCommandLabel: 'serving',
      commands: [
        { name: 'serve', forms: [{ form: '--a X', summary: 'serve' }] },
        { name: 'login', word: 'login', forms: [{ form: 'login', summary: 'sign in' }] },
      ],
      options: [
        { flag: 'a', type: 'string', value: 'X|Y', env: 'P_A', commands: ['serve', 'login'], help: 'one | two' },
        { flag: 'b', type: 'string', multiple: true, value: 'H', commands: ['serve'], help: 'a host' },
        { flag: 'help', type: 'boolean', short: 'h', commands: ['serve', 'login'], help: 'this help' },
      ],
    };
    const page = optionsPage(table);
    expect(page).toContain('## Serving\n');
    expect(page).toContain('| `--a X\\|Y` | `P_A` | one \\| two |');
    expect(page).toContain('| `--b H` |  | a host (repeatable) |');
    expect(page).toContain('| `-h`, `--help` |  | this help |');
    const login = page.slice(page.indexOf('## `p login`'));
    expect(login).toContain('`--a X\\|Y`');
    expect(login).not.toContain('`--b H`');
  });
});
