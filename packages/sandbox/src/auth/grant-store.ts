/**
 * Codes, tokens and what the user has consented to, in memory. Every token belongs to a grant
 * family (one per redeemed code), so that reuse of a code or of a rotated refresh token can
 * revoke everything that grant produced (RFC 6749 §4.1.2, RFC 9700 §4.14.2).
 */
import { randomBytes } from 'node:crypto';

export interface AuthorizationCode {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly scopes: readonly string[];
  readonly resource: string | undefined;
  readonly subject: string;
  readonly nonce: string | undefined;
  /** Seconds since the epoch, as every time below. */
  readonly authTime: number;
  readonly expiresAt: number;
  /** Set once the code has been exchanged; a second exchange revokes this family. */
  familyId: string | undefined;
}

export interface GrantFamily {
  readonly id: string;
  readonly clientId: string;
  readonly subject: string;
  /** Every scope the user granted; refresh tokens carry exactly these (RFC 6749 §6). */
  readonly scopes: readonly string[];
  readonly resource: string | undefined;
  readonly authTime: number;
  revoked: boolean;
}

export interface AccessTokenRecord {
  readonly family: GrantFamily;
  readonly scopes: readonly string[];
  readonly resource: string | undefined;
  readonly issuedAt: number;
  readonly expiresAt: number;
  revoked: boolean;
}

export interface RefreshTokenRecord {
  readonly family: GrantFamily;
  readonly issuedAt: number;
  readonly expiresAt: number;
  /** Set when a newer refresh token replaced this one; using it again is reuse. */
  superseded: boolean;
}

export interface IssuedTokens {
  accessToken: string;
  access: AccessTokenRecord;
  refreshToken: string | undefined;
}

export interface Lifetimes {
  codeTtlSeconds: number;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
}

/** What tests count at the school: refreshes that succeeded, and rotated refresh tokens presented again. */
export interface GrantStats {
  readonly refreshGrants: number;
  readonly refreshTokenReuses: number;
  /** The subjects whose grant was revoked because a rotated refresh token came back, in order. */
  readonly reusedBy: readonly string[];
}

export class GrantStore {
  #refreshGrants = 0;
  #refreshTokenReuses = 0;
  readonly #reusedBy: string[] = [];
  readonly #lifetimes: Lifetimes;
  readonly #now: () => number;
  readonly #codes = new Map<string, AuthorizationCode>();
  readonly #accessTokens = new Map<string, AccessTokenRecord>();
  readonly #refreshTokens = new Map<string, RefreshTokenRecord>();
  readonly #families = new Map<string, GrantFamily>();
  readonly #consents = new Map<string, Set<string>>();

  constructor(lifetimes: Lifetimes, nowSeconds: () => number) {
    this.#lifetimes = lifetimes;
    this.#now = nowSeconds;
  }

  issueCode(grant: Omit<AuthorizationCode, 'expiresAt' | 'familyId' | 'authTime'>): string {
    this.#forgetExpiredCodes();
    const code = opaque('sac');
    const now = this.#now();
    this.#codes.set(code, {
      ...grant,
      authTime: now,
      expiresAt: now + this.#lifetimes.codeTtlSeconds,
      familyId: undefined,
    });
    return code;
  }

  /** The code's record, expired or not; the token endpoint decides what each state means. */
  findCode(code: string): AuthorizationCode | undefined {
    return this.#codes.get(code);
  }

  isExpired(expiresAt: number): boolean {
    return this.#now() >= expiresAt;
  }

  /** Marks the code used and issues the first tokens of a new grant family. */
  redeemCode(
    code: AuthorizationCode,
    options: { resource: string | undefined; withRefreshToken: boolean },
  ): IssuedTokens {
    const family: GrantFamily = {
      id: opaque('fam'),
      clientId: code.clientId,
      subject: code.subject,
      scopes: code.scopes,
      resource: options.resource,
      authTime: code.authTime,
      revoked: false,
    };
    this.#families.set(family.id, family);
    code.familyId = family.id;
    return this.#issue(family, family.scopes, family.resource, options.withRefreshToken);
  }

  findAccessToken(token: string): AccessTokenRecord | undefined {
    return this.#accessTokens.get(token);
  }

  findRefreshToken(token: string): RefreshTokenRecord | undefined {
    return this.#refreshTokens.get(token);
  }

  /** The access token's record when it is unexpired and neither it nor its family is revoked. */
  activeAccessToken(token: string): AccessTokenRecord | undefined {
    const record = this.#accessTokens.get(token);
    if (!record || record.revoked || record.family.revoked || this.isExpired(record.expiresAt)) return undefined;
    return record;
  }

  /** The refresh token's record when it is current, unexpired and its family not revoked. */
  activeRefreshToken(token: string): RefreshTokenRecord | undefined {
    const record = this.#refreshTokens.get(token);
    if (!record || record.superseded || record.family.revoked || this.isExpired(record.expiresAt)) return undefined;
    return record;
  }

  /**
   * Exchanges a refresh token. With rotation the presented token is superseded and a new one is
   * returned; without it the same token is returned again.
   */
  refresh(
    token: string,
    record: RefreshTokenRecord,
    options: { scopes: readonly string[]; resource: string | undefined; rotate: boolean },
  ): IssuedTokens {
    this.#refreshGrants += 1;
    if (!options.rotate) {
      const issued = this.#issue(record.family, options.scopes, options.resource, false);
      return { ...issued, refreshToken: token };
    }
    record.superseded = true;
    return this.#issue(record.family, options.scopes, options.resource, true);
  }

  /** A superseded refresh token came back (RFC 9700 §4.14.2): counted before its family is revoked. */
  noteRefreshTokenReuse(family: GrantFamily): void {
    this.#refreshTokenReuses += 1;
    this.#reusedBy.push(family.subject);
  }

  stats(): GrantStats {
    return {
      refreshGrants: this.#refreshGrants,
      refreshTokenReuses: this.#refreshTokenReuses,
      reusedBy: [...this.#reusedBy],
    };
  }

  /** Ends a whole grant: every access and refresh token it produced stops working. */
  revokeFamily(familyId: string | undefined): void {
    const family = familyId === undefined ? undefined : this.#families.get(familyId);
    if (family) family.revoked = true;
  }

  revokeAccessToken(token: string): void {
    const record = this.#accessTokens.get(token);
    if (record) record.revoked = true;
  }

  recordConsent(clientId: string, subject: string, scopes: readonly string[]): void {
    const key = consentKey(clientId, subject);
    const granted = this.#consents.get(key) ?? new Set<string>();
    for (const scope of scopes) granted.add(scope);
    this.#consents.set(key, granted);
  }

  /** Scopes this user granted this client before, to mark them on the consent page. */
  consentedScopes(clientId: string, subject: string): ReadonlySet<string> {
    return new Set(this.#consents.get(consentKey(clientId, subject)));
  }

  #issue(
    family: GrantFamily,
    scopes: readonly string[],
    resource: string | undefined,
    withRefreshToken: boolean,
  ): IssuedTokens {
    const now = this.#now();
    const accessToken = opaque('sat');
    const access: AccessTokenRecord = {
      family,
      scopes,
      resource,
      issuedAt: now,
      expiresAt: now + this.#lifetimes.accessTokenTtlSeconds,
      revoked: false,
    };
    this.#accessTokens.set(accessToken, access);
    let refreshToken: string | undefined;
    if (withRefreshToken) {
      refreshToken = opaque('srt');
      this.#refreshTokens.set(refreshToken, {
        family,
        issuedAt: now,
        expiresAt: now + this.#lifetimes.refreshTokenTtlSeconds,
        superseded: false,
      });
    }
    return { accessToken, access, refreshToken };
  }

  #forgetExpiredCodes(): void {
    const now = this.#now();
    // Redeemed codes are kept an extra lifetime so a replay is still recognised as reuse.
    for (const [code, record] of this.#codes) {
      if (now >= record.expiresAt + this.#lifetimes.codeTtlSeconds * 10) this.#codes.delete(code);
    }
  }
}

/** An opaque, unguessable token: 256 random bits behind a short type prefix for debugging. */
function opaque(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

function consentKey(clientId: string, subject: string): string {
  return `${subject}\u0000${clientId}`;
}
