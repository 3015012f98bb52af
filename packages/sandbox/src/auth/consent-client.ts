/**
 * Answers the consent page the way a person with a browser would, for tests and scripted demos
 * that run without `autoApprove`: load the authorization URL, submit Allow or Deny with the
 * page's CSRF token and cookie (and the staff member `user` picked, else the preselected one),
 * and return where the browser would be sent.
 */

export type ConsentDecision = 'allow' | 'deny';

/**
 * Returns the redirect back to the client (with `code` or `error`). When the server redirects
 * straight away (auto-approve, or an error sent to the client) that redirect is returned as is.
 */
export async function completeConsent(
  authorizationUrl: string | URL,
  decision: ConsentDecision,
  options: { readonly user?: string } = {},
): Promise<URL> {
  const page = await fetch(authorizationUrl, { redirect: 'manual' });
  const immediate = page.headers.get('location');
  if (immediate !== null) return new URL(immediate);
  const html = await page.text();
  if (page.status !== 200)
    throw new Error(
      `the authorization request was refused (${page.status}): ${textOf(html, 'error-reason') ?? html.slice(0, 200)}`,
    );

  const action = attribute(html, 'form', 'action');
  const interaction = hiddenInput(html, 'interaction');
  const csrfToken = hiddenInput(html, 'csrf_token');
  const cookie = page.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .join('; ');
  if (action === undefined || interaction === undefined || csrfToken === undefined)
    throw new Error('the consent page has no consent form');

  const target = new URL(action, authorizationUrl);
  const answer = await fetch(target, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: target.origin },
    body: new URLSearchParams({
      interaction,
      csrf_token: csrfToken,
      decision,
      ...(options.user === undefined ? {} : { user: options.user }),
    }),
  });
  const location = answer.headers.get('location');
  if (location === null)
    throw new Error(
      `the consent form was refused (${answer.status}): ${textOf(await answer.text(), 'error-reason') ?? ''}`,
    );
  return new URL(location);
}

function hiddenInput(html: string, name: string): string | undefined {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(html);
  return match ? decodeEntities(match[1]!) : undefined;
}

function attribute(html: string, tag: string, name: string): string | undefined {
  const match = new RegExp(`<${tag}[^>]*\\s${name}="([^"]*)"`).exec(html);
  return match ? decodeEntities(match[1]!) : undefined;
}

function textOf(html: string, id: string): string | undefined {
  const match = new RegExp(`id="${id}">([^<]*)<`).exec(html);
  return match ? decodeEntities(match[1]!) : undefined;
}

function decodeEntities(value: string): string {
  return value.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, entity: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[entity]!,
  );
}
