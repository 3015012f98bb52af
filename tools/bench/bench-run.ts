/**
 * One bench run, start to end: the sandbox school in its own process, sign-in before any timing,
 * the peers installed and generated, then every row of the report measured in one go.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_SCOPES } from '@school-mcp/sandbox';
import { measureMemory, startForCalls } from './call-rows.js';
import { measureLatencies, reasonOf, type CallOnce } from './latency.js';
import { describeMachine } from './machine.js';
import type { LaunchSpec, ToolList } from './mcp-process.js';
import type { BenchOptions } from './options.js';
import { PROJECT_ROOT, REAL_DOCUMENTS_DIR } from './paths.js';
import {
  GENERATOR_PACKAGE,
  IVOTOBY_PACKAGE,
  generatePeer,
  generatedHttpSdkVersion,
  generatedLaunch,
  installPeers,
  installedVersion,
  ivotobyLaunch,
} from './peers.js';
import type {
  BenchResults,
  ContenderId,
  ContextRow,
  LatencyCell,
  LatencyRow,
  Measured,
  MemoryCell,
} from './results.js';
import { measureHostile } from './hostile-rows.js';
import { measureScale } from './scale.js';
import {
  bareCallLaunch,
  bareLaunch,
  connectOverHttp,
  directCaller,
  freePort,
  READ_OPERATION,
  readToolName,
  schoolMcpLaunch,
  spawnServer,
  toolCaller,
} from './servers.js';
import { obtainAccessToken, signInSchoolMcp } from './sign-in.js';
import { startSandboxProcess } from './sandbox-process.js';
import { coldStartRow, contextCell, listOnce, timeColdStarts } from './startup-rows.js';
import { loadTokenCounter, TOKENIZER } from './token-count.js';

const GITHUB_DOCUMENT = join(REAL_DOCUMENTS_DIR, 'github-rest-2020-07-30.openapi.yaml');
/** The corpus's one document of more than 1,000 operations (Swagger 2.0, JSON). */
const KUBERNETES_DOCUMENT = join(REAL_DOCUMENTS_DIR, 'kubernetes.swagger.json');

type Progress = (line: string) => void;

const ok = <T>(value: T): Measured<T> => ({ ok: true, value });
const failed = (reason: string): Measured<never> => ({ ok: false, reason });

export async function runBench(options: BenchOptions, progress: Progress): Promise<BenchResults> {
  const machine = describeMachine();
  const startedAt = new Date();
  const { counts } = options;
  const notes: string[] = [];
  const peerProblems: string[] = [];
  const scratch = await mkdtemp(join(tmpdir(), 'school-mcp-bench-'));
  const countTokens = loadTokenCounter();

  let peersReady = false;
  if (options.peers) {
    progress('installing the peers (tools/bench/package-lock.json)');
    try {
      await installPeers();
      peersReady = true;
    } catch (error) {
      peerProblems.push(`The peers could not be installed: ${reasonOf(error)}`);
    }
  }
  const peerSkipped = failed(options.peers ? 'not installed (see below)' : 'not measured in this run (--no-peers)');

  progress('starting the sandbox school');
  const sandbox = await startSandboxProcess();
  try {
    const url = sandbox.url;
    const readScopes = ALL_SCOPES.filter((scope) => scope.endsWith(':read'));
    const configDir = join(scratch, 'school-mcp');
    progress('signing school-mcp in (school-mcp login, consent approved by the bench)');
    await signInSchoolMcp(url, configDir, readScopes);
    const token = await obtainAccessToken(url, readScopes);
    const cacheDir = join(configDir, 'openapi-cache');
    const school = (extra: readonly string[] = []): Measured<LaunchSpec> => ok(schoolMcpLaunch(url, configDir, extra));
    // The large documents' starts keep their cache apart, so that emptying the sandbox document's
    // cache for its uncached row leaves theirs (filled by their first list) cached.
    const largeConfigDir = join(scratch, 'school-mcp-large-documents');
    const largeCacheDir = join(largeConfigDir, 'openapi-cache');
    const largeDocument = (document: string): Measured<LaunchSpec> =>
      ok(schoolMcpLaunch(url, largeConfigDir, ['--openapi', document, '--toolsets', 'all']));
    const githubThere = existsSync(GITHUB_DOCUMENT);
    const githubMissing = failed(`${GITHUB_DOCUMENT} is not there`);
    // A quick run checks that each row can be produced. A large document's start with nothing cached,
    // and the bare SDK server's start on it, run the code of the sandbox document's rows at seconds
    // of CPU each: not repeated.
    const notInQuickRun = failed("not measured in a quick run (the sandbox document's row runs the same start)");
    const uncachedLarge = (launch: Measured<LaunchSpec>): Measured<LaunchSpec> =>
      options.quick ? notInQuickRun : launch;

    const ivotoby = (spec: string, extra: readonly string[] = []): Measured<LaunchSpec> =>
      peersReady ? ok(ivotobyLaunch(spec, url, token, extra)) : peerSkipped;
    let generatedSandbox: Measured<LaunchSpec> = peerSkipped;
    let generatedGithub: Measured<LaunchSpec> = githubThere ? peerSkipped : githubMissing;
    let generatedHttpScript: Measured<string> = peerSkipped;
    let generatedKubernetes: Measured<LaunchSpec> = peerSkipped;
    if (peersReady) {
      progress('generating and building the openapi-mcp-generator servers');
      generatedSandbox = await generated(`${url}/openapi.json`, join(scratch, 'generated-sandbox'), url, token);
      if (githubThere)
        generatedGithub = await generated(GITHUB_DOCUMENT, join(scratch, 'generated-github'), url, token);
      generatedKubernetes = await generated(KUBERNETES_DOCUMENT, join(scratch, 'generated-kubernetes'), url, token);
      // The HTTP flavour serves the latency rows only.
      if (options.only !== 'startup')
        generatedHttpScript = await generatedScript(
          `${url}/openapi.json`,
          join(scratch, 'generated-sandbox-http'),
          url,
          'streamable-http',
        );
    }

    progress('listing tools once per configuration');
    const lists = {
      default: await listOnce(school()),
      all: await listOnce(school(['--toolsets', 'all'])),
      readOnly: await listOnce(school(['--read-only'])),
      dynamic: await listOnce(school(['--toolsets', 'dynamic'])),
      github: githubThere ? await listOnce(largeDocument(GITHUB_DOCUMENT)) : githubMissing,
      kubernetes: await listOnce(largeDocument(KUBERNETES_DOCUMENT)),
      ivotobyAll: await listOnce(ivotoby(`${url}/openapi.json`)),
      ivotobyReadOnly: await listOnce(ivotoby(`${url}/openapi.json`, ['--operation', 'get'])),
      ivotobyDynamic: await listOnce(ivotoby(`${url}/openapi.json`, ['--tools', 'dynamic'])),
      generated: await listOnce(generatedSandbox),
    };
    const bare = async (list: Measured<ToolList>, name: string): Promise<Measured<LaunchSpec>> => {
      if (!list.ok) return failed(`no tool list to copy: ${list.reason}`);
      const file = join(scratch, name);
      await writeFile(file, JSON.stringify(list.value.tools));
      return ok(bareLaunch(file));
    };

    progress(`cold start, sandbox document (${counts.coldStartRuns} runs each)`);
    const sandboxStarts = await timeColdStarts(
      [
        { key: 'school-uncached', launch: school(), before: () => rm(cacheDir, { recursive: true, force: true }) },
        { key: 'school-cached', launch: school() },
        { key: 'bare', launch: await bare(lists.default, 'bare-sandbox.json') },
        { key: 'ivotoby', launch: ivotoby(`${url}/openapi.json`) },
        { key: 'generated', launch: generatedSandbox },
      ],
      counts.coldStartRuns,
      counts.coldStartWarmup,
    );
    progress(`cold start, GitHub document (${counts.coldStartRunsLarge} runs each)`);
    const githubStarts = await timeColdStarts(
      [
        { key: 'school', launch: githubThere ? largeDocument(GITHUB_DOCUMENT) : githubMissing },
        {
          key: 'school-uncached',
          launch: uncachedLarge(githubThere ? largeDocument(GITHUB_DOCUMENT) : githubMissing),
          before: () => rm(largeCacheDir, { recursive: true, force: true }),
        },
        { key: 'bare', launch: options.quick ? notInQuickRun : await bare(lists.github, 'bare-github.json') },
        { key: 'ivotoby', launch: githubThere ? ivotoby(GITHUB_DOCUMENT) : githubMissing },
        { key: 'generated', launch: generatedGithub },
      ],
      counts.coldStartRunsLarge,
      counts.coldStartWarmup,
    );
    progress(`cold start, Kubernetes document (${counts.coldStartRunsLarge} runs each)`);
    const kubernetesStarts = await timeColdStarts(
      [
        { key: 'school', launch: largeDocument(KUBERNETES_DOCUMENT) },
        {
          key: 'school-uncached',
          launch: uncachedLarge(largeDocument(KUBERNETES_DOCUMENT)),
          before: () => rm(largeCacheDir, { recursive: true, force: true }),
        },
        { key: 'bare', launch: options.quick ? notInQuickRun : await bare(lists.kubernetes, 'bare-kubernetes.json') },
        { key: 'ivotoby', launch: ivotoby(KUBERNETES_DOCUMENT) },
        { key: 'generated', launch: generatedKubernetes },
      ],
      counts.coldStartRunsLarge,
      counts.coldStartWarmup,
    );
    const peerKeys = { 'bare-sdk': 'bare', ivotoby: 'ivotoby', generated: 'generated' } as const;
    const coldStart = [
      coldStartRow('sandbox document, not cached (default configuration)', sandboxStarts, {
        'school-mcp': 'school-uncached',
        ...peerKeys,
      }),
      coldStartRow(
        'sandbox document, cached and revalidated, catalogue cached (default configuration)',
        sandboxStarts,
        { 'school-mcp': 'school-cached', ...peerKeys },
      ),
      coldStartRow(
        'GitHub REST document, 623 operations, `--openapi FILE --toolsets all`, parsed copy and catalogue cached',
        githubStarts,
        { 'school-mcp': 'school', ...peerKeys },
      ),
      coldStartRow('GitHub REST document, 623 operations, `--openapi FILE --toolsets all`, not cached', githubStarts, {
        'school-mcp': 'school-uncached',
        ...peerKeys,
      }),
      coldStartRow(
        'Kubernetes document, 1,123 operations (Swagger 2.0 in JSON), `--openapi FILE --toolsets all`, catalogue cached',
        kubernetesStarts,
        { 'school-mcp': 'school', ...peerKeys },
      ),
      coldStartRow(
        'Kubernetes document, 1,123 operations (Swagger 2.0 in JSON), `--openapi FILE --toolsets all`, not cached',
        kubernetesStarts,
        { 'school-mcp': 'school-uncached', ...peerKeys },
      ),
    ];

    const cell = (list: Measured<ToolList>, as: string) =>
      list.ok ? ok(contextCell(list.value, as, countTokens)) : list;
    const noMode = failed('no such mode: it lists every operation');
    const context: ContextRow[] = [
      {
        configuration: 'default',
        cells: {
          'school-mcp': cell(lists.default, 'default'),
          ivotoby: cell(lists.ivotobyAll, 'default (`--tools all`)'),
          generated: cell(lists.generated, 'as generated'),
        },
      },
      {
        configuration: '`--toolsets all`',
        cells: {
          'school-mcp': cell(lists.all, '--toolsets all'),
          ivotoby: cell(lists.ivotobyAll, '`--tools all`'),
          generated: cell(lists.generated, 'as generated'),
        },
      },
      {
        configuration: '`--read-only`',
        cells: {
          'school-mcp': cell(lists.readOnly, '--read-only'),
          ivotoby: cell(lists.ivotobyReadOnly, '`--operation get`'),
          generated: peersReady ? noMode : peerSkipped,
        },
      },
      {
        configuration: '`--toolsets dynamic`',
        cells: {
          'school-mcp': cell(lists.dynamic, '--toolsets dynamic'),
          ivotoby: cell(lists.ivotobyDynamic, '`--tools dynamic`'),
          generated: peersReady ? noMode : peerSkipped,
        },
      },
    ];

    const header = () => ({
      machine,
      startedAt: startedAt.toISOString(),
      durationS: Math.round((Date.now() - startedAt.getTime()) / 1000),
      quick: options.quick,
      versions: {
        'school-mcp': packageVersion(PROJECT_ROOT),
        '@modelcontextprotocol/server': packageVersion(join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/server')),
        [IVOTOBY_PACKAGE]: installedVersion(IVOTOBY_PACKAGE),
        [GENERATOR_PACKAGE]: installedVersion(GENERATOR_PACKAGE),
        '@modelcontextprotocol/sdk (peers)': installedVersion('@modelcontextprotocol/sdk'),
        '@modelcontextprotocol/sdk (generated HTTP server)': generatedHttpSdkVersion(),
      },
      tokenizer: TOKENIZER,
      readOperation: `GET ${READ_OPERATION.path}?${READ_OPERATION.query}`,
    });
    if (options.only === 'startup')
      return { ...header(), coldStart, context, latency: [], memory: {}, scale: [], hostile: [], peerProblems, notes };

    const latency: LatencyRow[] = [];
    const plan = (concurrency: number) => ({
      rounds: counts.latencyRounds,
      warmup: counts.latencyWarmup,
      calls: counts.latencyCalls,
      concurrency,
    });
    const direct = directCaller(url, token);
    // The floor: the bare SDK server listing school-mcp's default tools and making the direct request.
    const bareCalls = (httpPort?: number): Measured<LaunchSpec> =>
      lists.default.ok
        ? ok(
            bareCallLaunch(join(scratch, 'bare-sandbox.json'), url, token, readToolName(lists.default.value), httpPort),
          )
        : failed(`no tool list to copy: ${lists.default.reason}`);
    try {
      progress('latency over stdio');
      const stdioServers = {
        'school-mcp': await startForCalls(school()),
        'bare-sdk': await startForCalls(bareCalls()),
        ivotoby: await startForCalls(ivotoby(`${url}/openapi.json`)),
        generated: await startForCalls(generatedSandbox),
      };
      try {
        latency.push(...(await latencyRows('stdio', direct.call, stdioServers, plan)));
      } finally {
        for (const server of Object.values(stdioServers)) if (server.ok) await server.value.close();
      }

      progress('latency over HTTP');
      const httpServers = {
        'school-mcp': await schoolOverHttp(url, configDir),
        'bare-sdk': await bareOverHttp(bareCalls),
        ivotoby: peersReady ? await ivotobyOverHttp(`${url}/openapi.json`, url, token) : peerSkipped,
        generated: generatedHttpScript.ok
          ? await generatedOverHttp(generatedHttpScript.value, join(scratch, 'generated-sandbox-http'), url, token)
          : generatedHttpScript,
      };
      try {
        latency.push(...(await latencyRows('HTTP', direct.call, httpServers, plan)));
      } finally {
        for (const server of Object.values(httpServers)) if (server.ok) await server.value.close();
      }
    } finally {
      await direct.close();
    }

    progress(`memory over ${counts.memoryCalls} calls (school-mcp's over ${counts.longMemoryCalls})`);
    const memory: Partial<Record<ContenderId, Measured<MemoryCell>>> = {
      'school-mcp': await measureMemory(school(), counts.memoryCalls, counts.longMemoryCalls),
      'bare-sdk': await measureMemory(bareCalls(), counts.memoryCalls),
      ivotoby: await measureMemory(ivotoby(`${url}/openapi.json`), counts.memoryCalls),
      generated: await measureMemory(generatedSandbox, counts.memoryCalls),
    };

    progress('scale: catalogue build per document');
    const scale = await measureScale(counts.scaleSizes, counts.scaleRuns, counts.scaleCompiledOperations, scratch);
    const hostile = await measureHostile(counts.hostileRuns, options.quick, scratch, progress);

    return {
      ...header(),
      coldStart,
      context,
      latency,
      memory,
      scale,
      hostile,
      peerProblems,
      notes,
    };
  } finally {
    await sandbox.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

async function generated(input: string, directory: string, url: string, token: string): Promise<Measured<LaunchSpec>> {
  const script = await generatedScript(input, directory, url, 'stdio');
  return script.ok ? ok(generatedLaunch(script.value, directory, url, token)) : script;
}

async function generatedScript(
  input: string,
  directory: string,
  url: string,
  transport: 'stdio' | 'streamable-http',
): Promise<Measured<string>> {
  try {
    return ok(await generatePeer(input, directory, url, transport));
  } catch (error) {
    return failed(`generation or build failed: ${reasonOf(error)}`);
  }
}

type CallServer = Measured<{ call: CallOnce; close(): Promise<void> }>;

async function latencyRows(
  transport: 'stdio' | 'HTTP',
  direct: CallOnce,
  servers: Readonly<Partial<Record<ContenderId, CallServer>>>,
  plan: (concurrency: number) => { rounds: number; warmup: number; calls: number; concurrency: number },
): Promise<LatencyRow[]> {
  const rows: LatencyRow[] = [];
  for (const concurrency of [1, 16]) {
    const callers = new Map<ContenderId, CallOnce>([['direct', direct]]);
    const cells: Partial<Record<ContenderId, Measured<LatencyCell>>> = {};
    for (const [id, server] of Object.entries(servers) as [ContenderId, CallServer][]) {
      if (server.ok) callers.set(id, server.value.call);
      else cells[id] = server;
    }
    const measured = await measureLatencies(callers, plan(concurrency));
    for (const [id, value] of measured) cells[id] = value;
    rows.push({ transport, concurrency, cells });
  }
  return rows;
}

async function schoolOverHttp(url: string, configDir: string): Promise<CallServer> {
  const port = await freePort();
  const secret = randomBytes(24).toString('base64url');
  const launch = schoolMcpLaunch(url, configDir, ['--http', '--host', '127.0.0.1', '--port', String(port)]);
  // The secret goes by environment, as a user keeps it out of the process list.
  const served = await readCallerOverHttp({ ...launch, env: { ...launch.env, SCHOOL_MCP_HTTP_SECRET: secret } }, port, {
    authorization: `Bearer ${secret}`,
  });
  return served.ok ? served : failed(`pending: \`school-mcp --http\` could not be measured: ${served.reason}`);
}

async function bareOverHttp(bareCalls: (httpPort: number) => Measured<LaunchSpec>): Promise<CallServer> {
  const port = await freePort();
  const launch = bareCalls(port);
  return launch.ok ? readCallerOverHttp(launch.value, port) : launch;
}

async function ivotobyOverHttp(spec: string, url: string, token: string): Promise<CallServer> {
  const port = await freePort();
  return readCallerOverHttp(
    ivotobyLaunch(spec, url, token, [
      '--transport',
      'http',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--path',
      '/mcp',
    ]),
    port,
  );
}

/** The generated Streamable HTTP project listens on `PORT` at `/mcp`, without authentication of its own. */
async function generatedOverHttp(script: string, directory: string, url: string, token: string): Promise<CallServer> {
  const port = await freePort();
  return readCallerOverHttp(generatedLaunch(script, directory, url, token, port), port);
}

/** Starts a server that listens on `port` at `/mcp` and returns a caller of its read tool. */
async function readCallerOverHttp(
  launch: LaunchSpec,
  port: number,
  headers: Record<string, string> = {},
): Promise<CallServer> {
  const child = spawnServer(launch);
  try {
    const server = await connectOverHttp(child, `http://127.0.0.1:${port}/mcp`, headers, 15_000);
    const list = (await server.client.listTools()) as ToolList;
    return ok({ call: toolCaller(server.client, readToolName(list)), close: server.close });
  } catch (error) {
    return failed(reasonOf(error));
  }
}

function packageVersion(directory: string): string {
  return (JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as { version: string }).version;
}
