/**
 * The MCP SDK client's OAuth provider, kept in memory, for one user of one MCP client: it
 * registers with the given redirect URI and, instead of opening a browser, keeps the
 * authorization URL for the test to open.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/client';

type Provider = OAuthClientProvider;
type ClientInformation = Awaited<ReturnType<Provider['clientInformation']>>;
type Tokens = Awaited<ReturnType<Provider['tokens']>>;
type DiscoveryState = Parameters<NonNullable<Provider['saveDiscoveryState']>>[0];

export class MemoryOAuthProvider implements Provider {
  authorizationUrl: URL | undefined;
  #client: ClientInformation;
  #tokens: Tokens;
  #verifier = '';
  #discovery: DiscoveryState | undefined;
  readonly #redirect: string;
  readonly #name: string;

  constructor(redirect: string, name: string) {
    this.#redirect = redirect;
    this.#name = name;
  }

  get redirectUrl(): string {
    return this.#redirect;
  }

  get clientMetadata() {
    return {
      client_name: this.#name,
      redirect_uris: [this.#redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation(): ClientInformation {
    return this.#client;
  }

  saveClientInformation(information: NonNullable<ClientInformation>): void {
    this.#client = information;
  }

  tokens(): Tokens {
    return this.#tokens;
  }

  /** What the SDK stored: the access token, for a test that replays it elsewhere. */
  get accessToken(): string | undefined {
    return (this.#tokens as { access_token?: string } | undefined)?.access_token;
  }

  saveTokens(tokens: NonNullable<Tokens>): void {
    this.#tokens = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    return this.#verifier;
  }

  /** What a real client does when the server refused its tokens (`invalid_grant`): forget them, so the SDK signs in anew. */
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.#tokens = undefined;
    if (scope === 'all' || scope === 'client') this.#client = undefined;
    if (scope === 'all' || scope === 'verifier') this.#verifier = '';
    if (scope === 'all' || scope === 'discovery') this.#discovery = undefined;
  }

  /** Kept so the SDK can check that the callback leg talks to the server discovery found (SEP-2352). */
  saveDiscoveryState(state: DiscoveryState): void {
    this.#discovery = state;
  }

  discoveryState(): DiscoveryState | undefined {
    return this.#discovery;
  }
}
