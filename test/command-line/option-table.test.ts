import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  commandUsage,
  parseCommandLine,
  SCHOOL_MCP_COMMAND_LINE as TABLE,
  type CommandName,
} from '../../src/command-line/index.js';
import { loadConfig } from '../../src/config/index.js';
import { parseArgsOptions } from '../../src/command-line/option-table.js';
import { programUsage } from '../../src/command-line/usage-text.js';

const COMMANDS = TABLE.commands.map((command) => command.name);

/** The `--flags` a usage text lists in its options section. */
function listedFlags(usage: string): string[] {
  const options = usage.slice(usage.indexOf('\noptions'));
  return [...options.matchAll(/^ {2}(?:-\w, )?--([\w-]+)/gm)].map((match) => match[1]!).sort();
}

describe('the command table', () => {
  it('gives each flag one type, and at most one row per command', () => {
    const types = new Map<string, string>();
    for (const option of TABLE.options) {
      expect(types.get(option.flag) ?? option.type, `--${option.flag}`).toBe(option.type);
      types.set(option.flag, option.type);
    }
    for (const command of COMMANDS) {
      const flags = TABLE.options.filter((option) => option.commands.includes(command)).map((option) => option.flag);
      expect(flags.length, command).toBe(new Set(flags).size);
    }
  });

  it('lets every command answer --help and --version, and names its variables SCHOOL_MCP_*', () => {
    for (const command of COMMANDS) {
      expect(parseArgsOptions(TABLE, command)).toMatchObject({
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      });
    }
    for (const option of TABLE.options) {
      expect(option.help.length, `--${option.flag}`).toBeGreaterThan(5);
      if (option.env !== undefined) expect(option.env).toMatch(/^SCHOOL_MCP_[A-Z_]+$/);
    }
  });

  it.each(COMMANDS)('lists in the help of %s exactly the flags its parser takes, with their variables', (command) => {
    const usage = commandUsage(TABLE, command);
    expect(listedFlags(usage)).toEqual(Object.keys(parseArgsOptions(TABLE, command)).sort());
    for (const option of TABLE.options.filter(
      (candidate) => candidate.commands.includes(command) && candidate.env !== undefined,
    )) {
      expect(usage).toContain(`(env ${option.env})`);
    }
  });

  it('builds a configuration node:util parseArgs accepts, per command', () => {
    const { values } = parseArgs({
      args: ['login', '--paste', '-h'].slice(1),
      options: parseArgsOptions(TABLE, 'login'),
      strict: true,
    });
    expect(values).toEqual({ paste: true, help: true });
    expect(() => parseArgs({ args: ['--http'], options: parseArgsOptions(TABLE, 'login'), strict: true })).toThrow(
      /Unknown option/,
    );
  });

  it('shows every command in the program help, with --help and --version', () => {
    const usage = programUsage(TABLE);
    for (const word of ['login', 'logout', 'status', 'tools', 'sandbox']) expect(usage).toContain(`school-mcp ${word}`);
    expect(usage).toMatch(/^ {2}-h, --help\s+this help$/m);
    expect(usage).toMatch(/^ {2}-v, --version\s/m);
    expect(usage.split('\n').every((line) => line.length <= 100)).toBe(true);
  });

  it('gives each command its own help, listing only its own options', () => {
    const login = commandUsage(TABLE, 'login');
    expect(login).toContain('school-mcp login [--scopes "a b"]');
    expect(login).toContain('--paste');
    expect(login).not.toContain('--http-secret');
    const sandbox = commandUsage(TABLE, 'sandbox');
    expect(listedFlags(sandbox)).toEqual([
      'auto-approve',
      'data',
      'extra-staff',
      'help',
      'integration',
      'port',
      'version',
    ]);
    expect(sandbox).toContain('listen on 127.0.0.1:N');
  });
});

describe('parseCommandLine', () => {
  const parse = (...argv: string[]) => parseCommandLine(TABLE, argv);

  it('selects a command by its first word, and serving without one', () => {
    expect(parse('--demo')).toMatchObject({ kind: 'run', command: 'serve', values: { demo: true } });
    expect(parse('tools', '--openapi', 'a.yaml', '--json')).toMatchObject({
      kind: 'run',
      command: 'tools',
      values: { openapi: 'a.yaml', json: true },
    });
    expect(parse('--demo', '--allowed-host', 'a', '--allowed-host', 'b')).toMatchObject({
      values: { 'allowed-host': ['a', 'b'] },
    });
  });

  it('answers help for the command it follows, and the version anywhere', () => {
    expect(parse('--help')).toEqual({ kind: 'help', command: 'serve' });
    expect(parse('login', '--help')).toEqual({ kind: 'help', command: 'login' });
    expect(parse('sandbox', '-h')).toEqual({ kind: 'help', command: 'sandbox' });
    expect(parse('status', '--paste', '--help')).toEqual({ kind: 'help', command: 'status' });
    expect(parse('-v')).toEqual({ kind: 'version' });
  });

  it('calls an unknown word an unknown command, and names the commands', () => {
    expect(parse('foo')).toEqual({
      kind: 'usage-error',
      command: undefined,
      message:
        'unknown command "foo"; the commands are login, logout, status, tools, sandbox, store keys, store reseal, store reset-secrets',
    });
    expect(parse('foo', '--help')).toMatchObject({
      kind: 'usage-error',
      message: expect.stringMatching(/^unknown command "foo"/),
    });
  });

  it('selects a command of two words by both, and names an unknown second word with the first', () => {
    expect(parse('store', 'keys', '--store', '/s')).toMatchObject({
      kind: 'run',
      command: 'store-keys',
      values: { store: '/s' },
    });
    expect(parse('store', 'reseal', '--json')).toMatchObject({
      kind: 'run',
      command: 'store-reseal',
      values: { json: true },
    });
    expect(parse('store', 'reset-secrets', '--help')).toEqual({ kind: 'help', command: 'store-reset-secrets' });
    expect(parse('store')).toMatchObject({
      kind: 'usage-error',
      message: expect.stringMatching(/^unknown command "store"; the commands are .*store keys, store reseal/),
    });
    expect(parse('store', 'wipe')).toMatchObject({
      kind: 'usage-error',
      message: expect.stringMatching(/^unknown command "store wipe"/),
    });
    expect(parse('store', 'keys', '--school', 'https://x.example')).toMatchObject({
      kind: 'usage-error',
      message: expect.stringMatching(/^--school goes with/),
    });
  });

  it.each<[string[], CommandName, RegExp]>([
    [['--demo', 'extra'], 'serve', /^school-mcp takes no argument "extra"$/],
    [['login', '--bogus'], 'login', /^Unknown option --bogus for school-mcp login$/],
    [['-x'], 'serve', /^Unknown option -x for school-mcp$/],
    [['--school'], 'serve', /^--school needs a value$/],
    [
      ['--school', '--demo'],
      'serve',
      /^--school needs a value, not "--demo" \(write --school=--demo if you mean it\)$/,
    ],
    [['--demo=yes'], 'serve', /^--demo takes no value$/],
    [['--paste'], 'serve', /^--paste goes with the login command only$/],
    [['logout', '--scopes', 'a'], 'logout', /^--scopes goes with serving and the login command only$/],
    [
      ['sandbox', '--school', 'https://a.example'],
      'sandbox',
      /^--school goes with serving and the login command and the logout command and the status command and the tools command only$/,
    ],
    [['tools', '--http'], 'tools', /^--http goes with serving only$/],
  ])('refuses %j as a usage error of %s', (argv, command, message) => {
    const parsed = parse(...argv);
    expect(parsed).toMatchObject({ kind: 'usage-error', command });
    expect(parsed.kind === 'usage-error' && parsed.message).toMatch(message);
  });

  it('keeps a value that starts with a dash when it is attached with =', () => {
    expect(parse('--demo', '--scopes=-odd')).toMatchObject({ kind: 'run', values: { scopes: '-odd' } });
  });
});

describe('the variables of the table', () => {
  const school = ['--school', 'https://school.example'];
  const samples: Record<string, string> = {
    SCHOOL_MCP_SCHOOL: 'https://other.example',
    SCHOOL_MCP_TOOLSETS: 'courses',
    SCHOOL_MCP_LOG_LEVEL: 'debug',
    SCHOOL_MCP_HTTP_SECRET: 'a-secret-of-twenty-chars',
    SCHOOL_MCP_DRAIN_SECONDS: '3',
    SCHOOL_MCP_REGISTRATION_LIMIT: '5',
    SCHOOL_MCP_REGISTRATION_CAP: '50',
    SCHOOL_MCP_REGISTRATION_EXPIRY: '600',
  };
  /** Flags a variable needs around it to be read at all. */
  const companions: Record<string, string[]> = {
    SCHOOL_MCP_HTTP_SECRET: ['--http'],
    SCHOOL_MCP_DRAIN_SECONDS: ['--hosted', '--public-url', 'https://mcp.school.example', '--client-id', 'sbxi_1'],
    SCHOOL_MCP_AUDIT_LOG: ['--hosted', '--public-url', 'https://mcp.school.example', '--client-id', 'sbxi_1'],
    SCHOOL_MCP_TRUST_PROXY: ['--hosted', '--public-url', 'https://mcp.school.example', '--client-id', 'sbxi_1'],
    SCHOOL_MCP_REGISTRATION_LIMIT: ['--hosted', '--public-url', 'https://mcp.school.example', '--client-id', 'sbxi_1'],
    SCHOOL_MCP_REGISTRATION_CAP: ['--hosted', '--public-url', 'https://mcp.school.example', '--client-id', 'sbxi_1'],
    SCHOOL_MCP_REGISTRATION_EXPIRY: ['--hosted', '--public-url', 'https://mcp.school.example', '--client-id', 'sbxi_1'],
  };

  it.each(TABLE.options.filter((option) => option.env !== undefined).map((option) => [option.env!, option] as const))(
    '%s is read by the commands that take its flag',
    (variable, option) => {
      const sample = samples[variable] ?? (option.type === 'boolean' ? 'true' : 'sample-value');
      const argv = [
        ...(option.commands.includes('serve') ? [] : [option.commands[0]!]),
        ...school,
        ...(companions[variable] ?? []),
      ];
      const withVariable =
        variable === 'SCHOOL_MCP_SCHOOL'
          ? loadConfig(
              argv.filter((arg) => !school.includes(arg)),
              { [variable]: sample },
            )
          : loadConfig(argv, { [variable]: sample });
      expect(withVariable).not.toEqual(loadConfig(argv, {}));
    },
  );

  it('is not read by a command that does not take its flag', () => {
    expect(loadConfig(['logout', ...school], { SCHOOL_MCP_READ_ONLY: 'true' }).readOnly).toBe(false);
    expect(loadConfig(['login', ...school], { SCHOOL_MCP_READ_ONLY: 'true' }).readOnly).toBe(true);
  });
});

describe('loadConfig for the tools command', () => {
  it('takes a document file without a school, and refuses a document URL without one', () => {
    expect(loadConfig(['tools', '--openapi', 'api.yaml', '--json'], {})).toMatchObject({
      command: 'tools',
      schoolUrl: undefined,
      openapiSource: 'api.yaml',
      json: true,
    });
    expect(() => loadConfig(['tools', '--openapi', 'https://api.example/openapi.json'], {})).toThrow(
      /an --openapi URL needs --school/,
    );
    expect(() => loadConfig(['tools'], {})).toThrow(/--openapi FILE, or use --demo/);
  });

  it('gives a usage error the hint of its own command', () => {
    expect(() => loadConfig(['tools', '--bogus'], {})).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', hint: 'run `school-mcp tools --help` for the options' }),
    );
    expect(() => loadConfig(['--bogus'], {})).toThrow(
      expect.objectContaining({ hint: 'run `school-mcp --help` for the options' }),
    );
  });
});
