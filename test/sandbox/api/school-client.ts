/**
 * A tiny client for the sandbox's business API over real HTTP, so task tests read like the calls
 * a careful agent makes: `api.get('/courses', { token })`.
 */
import { startSandbox, type RunningSandbox, type SandboxOptions } from '@school-mcp/sandbox';
import { obtainSandboxTokens as obtainTokens } from '@school-mcp/sandbox';

export interface ApiAnswer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  token?: string;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
}

export class SchoolClient {
  constructor(readonly sandbox: RunningSandbox) {}

  static async start(options: SandboxOptions = {}): Promise<SchoolClient> {
    return new SchoolClient(await startSandbox({ autoApprove: true, ...options }));
  }

  /** A real access token for these scopes, from the sandbox's own authorization server. */
  async token(scopes: string[], options: { resource?: string } = {}): Promise<string> {
    return (await obtainTokens(this.sandbox.url, scopes, options)).accessToken;
  }

  get<T = any>(path: string, options: CallOptions = {}): Promise<ApiAnswer<T>> {
    return this.call('GET', path, options);
  }

  post<T = any>(path: string, options: CallOptions = {}): Promise<ApiAnswer<T>> {
    return this.call('POST', path, options);
  }

  patch<T = any>(path: string, options: CallOptions = {}): Promise<ApiAnswer<T>> {
    return this.call('PATCH', path, options);
  }

  delete<T = any>(path: string, options: CallOptions = {}): Promise<ApiAnswer<T>> {
    return this.call('DELETE', path, options);
  }

  async call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<ApiAnswer<T>> {
    const url = new URL(`${this.sandbox.url}/api/v1${path}`);
    for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = {};
    if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    return { status: response.status, body: text.length > 0 ? JSON.parse(text) : undefined, headers: response.headers };
  }

  /** Walks every page of a list, as an agent paging through results. */
  async all<T = any>(path: string, options: CallOptions = {}): Promise<T[]> {
    const items: T[] = [];
    for (let page = 1; ; page++) {
      const answer = await this.get(path, { ...options, query: { ...options.query, page, per_page: 50 } });
      if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      items.push(...answer.body.items);
      if (!answer.body.has_next_page) return items;
    }
  }

  close(): Promise<void> {
    return this.sandbox.close();
  }
}
