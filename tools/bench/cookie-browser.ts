/**
 * A person's browser without a screen, for the hosted bench and the hosted tests: plain fetch
 * with a cookie jar (per origin, honouring `Path` and `Max-Age=0`), following nothing by itself
 * so a caller sees every redirect.
 */

interface Cookie {
  readonly value: string;
  readonly path: string;
}

export class CookieBrowser {
  readonly #jar = new Map<string, Map<string, Cookie>>();

  /** One request; cookies sent and stored. Returns the raw response (redirects not followed). */
  async request(
    url: string | URL,
    init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const target = new URL(url);
    const cookies = [...(this.#jar.get(target.origin) ?? new Map<string, Cookie>()).entries()]
      .filter(
        ([, cookie]) =>
          target.pathname === cookie.path ||
          target.pathname.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`),
      )
      .map(([name, cookie]) => `${name}=${cookie.value}`)
      .join('; ');
    const response = await fetch(target, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      redirect: 'manual',
      headers: {
        ...(cookies === '' ? {} : { cookie: cookies }),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded', origin: target.origin } : {}),
        ...init.headers,
      },
      ...(init.form ? { body: new URLSearchParams(init.form) } : {}),
    });
    this.#store(target, response.headers.getSetCookie());
    return response;
  }

  /** Follows redirects while `keepGoing` says so; returns the last response and its URL. */
  async follow(url: string | URL, keepGoing: (next: URL) => boolean): Promise<{ response: Response; url: URL }> {
    let current = new URL(url);
    for (let hops = 0; hops < 10; hops += 1) {
      const response = await this.request(current);
      const location = response.headers.get('location');
      if (location === null) return { response, url: current };
      const next = new URL(location, current);
      if (!keepGoing(next)) return { response, url: next };
      await response.body?.cancel();
      current = next;
    }
    throw new Error('too many redirects');
  }

  #store(url: URL, setCookies: readonly string[]): void {
    const jar = this.#jar.get(url.origin) ?? new Map<string, Cookie>();
    this.#jar.set(url.origin, jar);
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const [name, ...rest] = pair!.split('=');
      const attribute = (key: string) =>
        attributes
          .find((entry) => entry.toLowerCase().startsWith(`${key}=`))
          ?.split('=')
          .slice(1)
          .join('=');
      if (
        attribute('max-age') === '0' ||
        (attribute('expires') !== undefined && Date.parse(attribute('expires')!) < Date.now())
      ) {
        jar.delete(name!);
        continue;
      }
      jar.set(name!, { value: rest.join('='), path: attribute('path') ?? '/' });
    }
  }
}

/** The value of a hidden input of a page. */
export function hiddenInput(html: string, name: string): string | undefined {
  return new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(html)?.[1];
}
