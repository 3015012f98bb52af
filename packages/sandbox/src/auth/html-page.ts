/**
 * The frame of the server's HTML pages and the escaping every interpolated value goes through:
 * client names and reasons come from the network.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

/** A complete page; `body` must already be escaped HTML. */
export function renderPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem; color: #1d2330; }
  h1 { font-size: 1.4rem; }
  .card { border: 1px solid #d5d9e2; border-radius: 8px; padding: 1rem 1.25rem; margin: 1rem 0; }
  .muted { color: #5b6476; font-size: .9rem; }
  ul.scopes { padding-left: 1.2rem; }
  .granted { color: #2f7a3c; font-size: .85rem; margin-left: .4rem; }
  .actions { display: flex; gap: .75rem; margin-top: 1.5rem; }
  button { font: inherit; padding: .5rem 1.4rem; border-radius: 6px; border: 1px solid #8a93a6; background: #fff; cursor: pointer; }
  button.allow { background: #1f5fd1; border-color: #1f5fd1; color: #fff; }
  code { background: #f1f3f7; padding: 0 .25rem; border-radius: 3px; }
</style>
</head>
<body>
${body}
</body>
</html>
`;
}
