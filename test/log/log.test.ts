import { describe, expect, it } from 'vitest';
import { MAX_REDACTED_SECRETS, SecretRegistry, createLogger, formatLine } from '../../src/log.js';

describe('the logger', () => {
  it('LOG-01 redacts secret fields by name and registered secrets wherever they appear', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', write: (line) => lines.push(line) });
    logger.redact('AT-CANARY-0123456789');
    const oauthLog = logger.child('oauth');
    oauthLog.info('refreshed AT-CANARY-0123456789', {
      access_token: 'anything',
      authorization: 'Bearer x',
      note: 'see AT-CANARY-0123456789',
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('AT-CANARY');
    expect(lines[0]).not.toContain('anything');
    expect(lines[0]).toContain('school-mcp:oauth [info]');
    expect(lines[0]).toContain('access_token=[redacted]');
  });

  it('LOG-02 neutralises attacker text: CR/LF, ANSI escapes and huge values stay on one short line', () => {
    const hostile = 'denied\n[info] approved\r\u001b[2J' + 'x'.repeat(1024 * 1024);
    const line = formatLine(new SecretRegistry(), 'school-mcp', 'warn', 'authorization failed', {
      error_description: hostile,
    });
    expect(line).not.toMatch(/[\n\r\u001b]/);
    expect(line).toContain('\\n[info] approved');
    expect(line.length).toBeLessThan(1200);
    expect(line).toContain('chars)');
  });

  it('LOG-07 redacts a secret before the cut, so the head of one that straddles it is never written', () => {
    const secret = 'AT-STRADDLE-0123456789abcdef';
    const secrets = new SecretRegistry();
    secrets.add(secret);
    for (const start of [480, 490, 495, 499]) {
      // The value is rendered as a JSON string, so its opening quote puts the secret at start + 1.
      const value = `${'x'.repeat(start)}${secret}${'y'.repeat(600)}`;
      const line = formatLine(secrets, 'school-mcp', 'warn', `${'m'.repeat(start)}${secret} in the message`, {
        note: value,
        error: new Error(value),
      });
      expect(line).not.toContain('AT-STRADD');
      expect(line).not.toContain('AT-');
      expect(line).toContain('chars)');
    }
  });

  it('LOG-08 redacts a secret with a quote, a backslash or non-ASCII as JSON escaping writes it, once or twice', () => {
    const secret = 'cl"ient\\sécret-0123456789';
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', write: (line) => lines.push(line) });
    logger.redact(secret);
    const asciiJson = JSON.stringify({ client_secret: secret }).replace(
      /[^\x00-\x7f]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    logger.warn('the school answered', {
      said: secret,
      form: { client: { secret } },
      body: JSON.stringify({ client_secret: secret }),
      asciiBody: asciiJson,
      nested: { body: asciiJson },
    });
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line.match(/\[redacted\]/g)).toHaveLength(5);
    for (const fragment of ['cl\\"ient', 'ient\\\\', 'sécret', 's\\u00e9cret', 's\\\\u00e9cret'])
      expect(line).not.toContain(fragment);
  });

  it('LOG-08 lets go of every form of a rotated-out secret, and keeps a form another secret still has', () => {
    const secrets = new SecretRegistry(1);
    const quoted = 'to"ken-0123456789';
    const escapedAsRaw = 'to\\"ken-0123456789';
    secrets.add(escapedAsRaw, 'lasting');
    secrets.add(quoted, 'rotating');
    secrets.add('another-rotating-token', 'rotating');
    expect(secrets.size).toBe(2);
    expect(secrets.redactIn(`a ${quoted} b`)).toBe(`a ${quoted} b`);
    // The rotated-out secret's escaped form is the lasting secret itself.
    expect(secrets.redactIn(`a ${escapedAsRaw} b`)).toBe('a [redacted] b');
  });

  it('LOG-09 shows bidirectional overrides, zero-width characters and tags in logged text as escapes', () => {
    const hostile = `admin\u202egnp.exe\u200b\u2066x\u{e0041}`;
    const line = formatLine(new SecretRegistry(), 'school-mcp', 'warn', `issuer ${hostile}`, {
      error_description: hostile,
    });
    expect(line).not.toMatch(/[\p{Cf}]/u);
    expect(line).toContain('admin\\u202egnp.exe\\u200b\\u2066x\\u{e0041}');
  });

  it('drops lines below the chosen level', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'warn', write: (line) => lines.push(line) });
    logger.info('quiet');
    logger.error('loud');
    expect(lines).toEqual(['school-mcp [error] loud']);
  });
});

describe('the registered secrets', () => {
  it('LOG-01 replaces every occurrence, adjacent ones and the longest of secrets that start alike', () => {
    const secrets = new SecretRegistry();
    secrets.add('refresh-0123456789');
    secrets.add('refresh-0123456789-and-more');
    secrets.add('short');
    expect(secrets.redactIn('a=refresh-0123456789-and-more b=refresh-0123456789refresh-0123456789 c=short')).toBe(
      'a=[redacted] b=[redacted][redacted] c=short',
    );
    expect(secrets.redactIn('nothing here')).toBe('nothing here');
  });

  it('LOG-01 keeps the most recent secrets in a bounded registry, however many tokens a long-running instance rotates through', () => {
    const secrets = new SecretRegistry(100);
    const token = (index: number) => `access-token-${String(index).padStart(6, '0')}`;
    secrets.add(token(0), 'rotating');
    for (let index = 1; index <= 1_000; index++) {
      secrets.add(token(index), 'rotating');
      // Registered again, as an executor does on each call with the same token: it stays.
      if (index % 10 === 0) secrets.add(token(0), 'rotating');
    }
    expect(secrets.size).toBe(100);
    expect(secrets.redactIn(`${token(0)} ${token(1_000)} ${token(902)}`)).toBe('[redacted] [redacted] [redacted]');
    expect(secrets.redactIn(token(901))).toBe(token(901));
  });

  it('holds the default bound of the loggers it backs', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', write: (line) => lines.push(line) });
    logger.redact('client-secret-registered-once');
    for (let index = 0; index <= MAX_REDACTED_SECRETS; index++)
      logger.redact(`rotated-token-${index}-0123456789`, 'rotating');
    logger.info(
      `first rotated-token-0-0123456789, last rotated-token-${MAX_REDACTED_SECRETS}-0123456789, client-secret-registered-once`,
    );
    // The client secret, registered before all the tokens, outlives them: a lasting secret is never let go.
    expect(lines).toEqual(['school-mcp [info] first rotated-token-0-0123456789, last [redacted], [redacted]']);
  });

  it('LOG-01 finds secrets that share a long start, as JWTs of one issuer do, each whole', () => {
    const secrets = new SecretRegistry();
    const header = 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9';
    const jwt = (index: number) => `${header}.eyJzdWIiOiJ1LSR7${index}fQ.sig${index % 7}`;
    for (let index = 0; index < 2_000; index++) secrets.add(jwt(index), 'rotating');
    expect(secrets.redactIn(`a=${jwt(1_999)} b=${jwt(5)} c=${header}.unregistered`)).toBe(
      `a=[redacted] b=[redacted] c=${header}.unregistered`,
    );
  });

  it('LOG-01 covers a secret that starts inside another and ends after it, whichever came first', () => {
    const secrets = new SecretRegistry();
    secrets.add('-1BBBBBBBBBBBBBBBB-secret');
    secrets.add('AAAAAAAA-1');
    expect(secrets.redactIn('x=AAAAAAAA-1BBBBBBBBBBBBBBBB-secret y')).toBe('x=[redacted] y');
  });

  it('LOG-01 keeps a secret registered as lasting after it was registered as rotating', () => {
    const secrets = new SecretRegistry(2);
    secrets.add('client-secret-0123', 'rotating');
    secrets.add('client-secret-0123');
    for (let index = 0; index < 10; index++) secrets.add(`token-${index}-0123456789`, 'rotating');
    expect(secrets.size).toBe(3);
    expect(secrets.redactIn('client-secret-0123 token-9-0123456789 token-0-0123456789')).toBe(
      '[redacted] [redacted] token-0-0123456789',
    );
  });
});
