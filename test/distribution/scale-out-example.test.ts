/**
 * The example deployment in examples/scale-out: haproxy accepts its configuration (`haproxy -c`,
 * with a throw-away certificate in place of the real one), and the load balancer, the instances'
 * health checks and the suite's cluster all name the same readiness path.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORE_SCHEMA, load, mergeTag } from 'js-yaml';
import { OPTIONAL_PACKAGES } from '../../src/optional-packages.js';
import { READINESS_PATH } from '../../tools/bench/scale-out/cluster.js';
import { describeWithHaproxy, haproxyConfig } from '../helpers/haproxy.js';

const run = promisify(execFile);
const EXAMPLE = resolve(import.meta.dirname, '../../examples/scale-out');

interface Service {
  readonly command?: readonly string[];
  readonly healthcheck?: { readonly test?: readonly string[] };
  readonly depends_on?: Record<string, { condition?: string }> | readonly string[];
}

async function example(): Promise<{ haproxy: string; services: Record<string, Service> }> {
  const haproxy = await readFile(join(EXAMPLE, 'haproxy.cfg'), 'utf8');
  const compose = load(await readFile(join(EXAMPLE, 'docker-compose.yml'), 'utf8'), {
    schema: CORE_SCHEMA.withTags(mergeTag),
  }) as { services: Record<string, Service> };
  return { haproxy, services: compose.services };
}

function optionOf(command: readonly string[], flag: string): string | undefined {
  const index = command.indexOf(flag);
  return index < 0 ? undefined : command[index + 1];
}

describe('the scale-out example deployment', () => {
  it('SCL-28 checks every instance at the readiness path the instances serve, in haproxy and in compose', async () => {
    const { haproxy, services } = await example();
    expect(haproxy).toContain(`option httpchk GET ${READINESS_PATH}\n`);
    expect(haproxy).toMatch(/^ {2}balance roundrobin$/m);
    expect(haproxy).not.toMatch(/\b(cookie|stick|hash-type|balance source)\b/);
    const servers = [...haproxy.matchAll(/^ {2}server (\S+) (\S+):(\d+)$/gm)].map((match) => ({
      name: match[1]!,
      host: match[2]!,
      port: match[3]!,
    }));
    expect(servers.map((server) => server.name)).toEqual(['mcp1', 'mcp2', 'mcp3']);
    for (const server of servers) {
      const service = services[server.host];
      expect(service, server.host).toBeDefined();
      expect(optionOf(service!.command ?? [], '--port')).toBe(server.port);
      expect((service!.healthcheck?.test ?? []).join(' ')).toContain(`:${server.port}${READINESS_PATH}`);
    }
  });

  it('SCL-28 balances and retries as the load balancer of the scale-out suite does, so what the suite proves holds for it', async () => {
    const { haproxy } = await example();
    const tested = haproxyConfig(8000, { backends: [{ name: 'mcp1', port: 8080 }], checkPath: READINESS_PATH });
    for (const line of [
      'balance roundrobin',
      'retry-on conn-failure',
      'option redispatch 1',
      `option httpchk GET ${READINESS_PATH}`,
    ]) {
      expect(tested, line).toContain(`  ${line}\n`);
      expect(haproxy, line).toContain(`  ${line}\n`);
    }
  });

  it('runs identical instances on one Redis store and one key, behind one public https URL', async () => {
    const { services } = await example();
    const instances = ['mcp1', 'mcp2', 'mcp3'].map((name) => services[name]!.command ?? []);
    for (const command of instances) {
      expect(command).toEqual(instances[0]);
      expect(command).toContain('--hosted');
      expect(optionOf(command, '--store')).toBe('redis://redis:6379/0');
      expect(optionOf(command, '--public-url')).toMatch(/^https:\/\//);
      expect(optionOf(command, '--store-key-file')).toBe('/run/secrets/store_key');
      expect(command.join(' ')).not.toMatch(/--client-secret |SCHOOL_MCP_REDIS_PASSWORD=|redis:\/\/[^@\s]*@/);
    }
    // Every instance waits for Redis to answer, and no more: the first to start creates the keys the others read.
    for (const name of ['mcp1', 'mcp2', 'mcp3'])
      expect(services[name]!.depends_on).toEqual({ redis: { condition: 'service_healthy' } });
  });

  it("installs the packed package with hosted mode's optional packages at the versions it pins, and runs its bin", async () => {
    const dockerfile = await readFile(join(EXAMPLE, 'Dockerfile'), 'utf8');
    const install = /npm install --omit=dev [^\n]*/.exec(dockerfile)?.[0] ?? '';
    expect(install).toContain('/tmp/school-mcp-*.tgz');
    for (const spec of OPTIONAL_PACKAGES.hosted.packages) expect(install, spec).toContain(` ${spec}`);
    const bin = 'node_modules/school-mcp/dist/bin/school-mcp.js';
    expect(dockerfile).toContain(`ENTRYPOINT ["node", "${bin}"]`);
    const compose = await readFile(join(EXAMPLE, 'docker-compose.yml'), 'utf8');
    expect(compose).toContain(`exec node ${bin} `);
    expect(`${dockerfile}\n${compose}`).not.toContain('dist/src/');
  });
});

describeWithHaproxy('haproxy -c on the example configuration', () => {
  let directory: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'school-mcp-example-cert-'));
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=mcp.school.example',
      '-days',
      '1',
      '-keyout',
      join(directory, 'key.pem'),
      '-out',
      join(directory, 'cert.pem'),
    ]);
    const pem =
      (await readFile(join(directory, 'cert.pem'), 'utf8')) + (await readFile(join(directory, 'key.pem'), 'utf8'));
    await writeFile(join(directory, 'mcp.pem'), pem, { mode: 0o600 });
  });

  afterAll(async () => {
    if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  });

  it('SCL-28 is a configuration haproxy accepts', async () => {
    const haproxy = process.env['SCHOOL_MCP_TEST_HAPROXY'] || 'haproxy';
    const checked = await run(haproxy, ['-c', '-f', join(EXAMPLE, 'haproxy.cfg')], {
      env: { ...process.env, CERT_FILE: join(directory, 'mcp.pem') },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({
        code: error.code ?? 1,
        output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
      }),
    );
    expect(checked.code, checked.output).toBe(0);
    expect(checked.output).toMatch(/Configuration file is valid/);
  });
});
