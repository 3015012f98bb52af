/**
 * `npm test`'s checks before the suite, side by side: the build (tsc and the bin's bundle), the
 * type-check of sources and tests, knip, the linter and the formatter's check (`npm run lint`,
 * `npm run format:check`; see .oxlintrc.json). One after another they kept one core of two idle
 * for several seconds of every test run. Each step's output is printed whole when it ends, so
 * that they never interleave, and any failure fails the run after all of them have ended.
 *
 * Plain JavaScript because it runs before anything is built. By hand rather than with a package
 * such as concurrently: starting a few commands and waiting for them is all it does.
 */
import { spawn } from 'node:child_process';

// npm puts node_modules/.bin on PATH for scripts; on Windows the bins are .cmd files, which
// Node starts only through a shell.
const shell = process.platform === 'win32';

const STEPS = [
  { name: 'build', command: 'npm', args: ['run', 'build', '--silent'] },
  { name: 'type-check', command: 'tsc', args: ['-p', 'tsconfig.json'] },
  { name: 'knip', command: 'knip', args: [] },
  { name: 'lint', command: 'npm', args: ['run', 'lint', '--silent'] },
  { name: 'format', command: 'npm', args: ['run', 'format:check', '--silent'] },
];

function run({ name, command, args }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { shell, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => resolve({ name, ok: false, output: `${error.message}\n` }));
    child.on('close', (code) => resolve({ name, ok: code === 0, output: Buffer.concat(output).toString('utf8') }));
  });
}

const results = await Promise.all(STEPS.map(run));
for (const { name, ok, output } of results) {
  if (output.trim() !== '') process.stderr.write(output.endsWith('\n') ? output : `${output}\n`);
  if (!ok) process.stderr.write(`pretest: ${name} failed\n`);
}
process.exitCode = results.every((result) => result.ok) ? 0 : 1;
