/**
 * ST-08: a secret in argv is readable by every local user (`ps`, `/proc/<pid>/cmdline`) for as
 * long as the process runs; it still works, with a warning naming the safer ways. Pure.
 * @see SECURITY.md ST-08
 */
export function argvSecretWarnings(values: { 'http-secret'?: string; 'client-secret'?: string }): string[] {
  const warnings: string[] = [];
  for (const [flag, variable] of [
    ['http-secret', 'SCHOOL_MCP_HTTP_SECRET'],
    ['client-secret', 'SCHOOL_MCP_CLIENT_SECRET'],
  ] as const) {
    if (values[flag] === undefined) continue;
    warnings.push(
      `--${flag} puts the secret in the command line, where every user of this machine can read it (ps, /proc/<pid>/cmdline); use --${flag}-file FILE or ${variable} instead`,
    );
  }
  return warnings;
}
