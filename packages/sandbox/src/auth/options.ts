/**
 * What can be tuned on the sandbox's authorization server, and the defaults a real school would
 * plausibly use. Fault knobs are off unless set; they exist so the bridge's tests can meet a
 * misbehaving school.
 */
import { staffRoster, type StaffMember } from '../school-user.js';

/** Faults of the authorization server, for the bridge's negative tests. */
export interface AuthFaultOptions {
  /** Publish this `issuer` in both metadata documents instead of the real one (RFC 8414 §3.3 mix-up). */
  wrongIssuerInMetadata?: string;
  /** Put this `iss` on every authorization response instead of the real issuer (RFC 9207 §2.4). */
  wrongIssOnRedirect?: string;
  /** Leave `iss` off authorization responses although the metadata promises it. */
  omitIssOnRedirect?: boolean;
  /** Leave `code_challenge_methods_supported` out of the metadata (the client must then refuse, RFC 9700 §2.1.1). */
  omitS256FromMetadata?: boolean;
  /** Return the same refresh token on refresh instead of rotating it. */
  disableRefreshRotation?: boolean;
}

export interface AuthServerOptions {
  /** Approve every authorization request without showing the consent page (demo, headless tests). */
  autoApprove?: boolean;
  /**
   * Match loopback redirect URIs on their port too. Off by default: RFC 8252 §7.3 lets a native
   * client pick any port at request time, and a real school may do either.
   */
  exactRedirectPort?: boolean;
  /** Lifetime of an authorization code in seconds (default 60). */
  codeTtlSeconds?: number;
  /** Lifetime of an access token in seconds (default 3600). */
  accessTokenTtlSeconds?: number;
  /** Lifetime of a refresh token in seconds (default 30 days). */
  refreshTokenTtlSeconds?: number;
  /**
   * Accept `http://127.0.0.1:<port>/...` Client ID Metadata Document URLs. Insecure: tests only,
   * because a test cannot serve https.
   */
  allowInsecureClientMetadataUrls?: boolean;
  /** Time limit for fetching a Client ID Metadata Document, in milliseconds (default 5000). */
  clientMetadataTimeoutMs?: number;
  /** Size limit of a Client ID Metadata Document in bytes (default 5120, as the draft recommends). */
  clientMetadataMaxBytes?: number;
  /**
   * The clock; tests move it to expire codes and tokens. Same signature as the business API's
   * option, so one clock drives the whole sandbox.
   */
  now?: () => Date;
  /**
   * Generated staff members (`usr_staff_001` … named `Staff Member 001` …, lecturers) who may sign
   * in after the three named ones, for load tests that need many people (default 0, at most 999).
   */
  extraStaff?: number;
  faults?: AuthFaultOptions;
}

/** The options with every default filled in. */
export interface AuthSettings {
  readonly autoApprove: boolean;
  readonly exactRedirectPort: boolean;
  readonly codeTtlSeconds: number;
  readonly accessTokenTtlSeconds: number;
  readonly refreshTokenTtlSeconds: number;
  readonly allowInsecureClientMetadataUrls: boolean;
  readonly clientMetadataTimeoutMs: number;
  readonly clientMetadataMaxBytes: number;
  /** Seconds since the epoch. */
  readonly nowSeconds: () => number;
  /** Who may sign in: the named staff, then the generated ones. */
  readonly staff: readonly StaffMember[];
  readonly faults: Readonly<AuthFaultOptions>;
}

export function resolveAuthSettings(options: AuthServerOptions): AuthSettings {
  const now = options.now ?? (() => new Date());
  return {
    autoApprove: options.autoApprove ?? false,
    exactRedirectPort: options.exactRedirectPort ?? false,
    codeTtlSeconds: positive(options.codeTtlSeconds, 60, 'codeTtlSeconds'),
    accessTokenTtlSeconds: positive(options.accessTokenTtlSeconds, 3600, 'accessTokenTtlSeconds'),
    refreshTokenTtlSeconds: positive(options.refreshTokenTtlSeconds, 30 * 24 * 3600, 'refreshTokenTtlSeconds'),
    allowInsecureClientMetadataUrls: options.allowInsecureClientMetadataUrls ?? false,
    clientMetadataTimeoutMs: positive(options.clientMetadataTimeoutMs, 5000, 'clientMetadataTimeoutMs'),
    clientMetadataMaxBytes: positive(options.clientMetadataMaxBytes, 5120, 'clientMetadataMaxBytes'),
    nowSeconds: () => Math.floor(now().getTime() / 1000),
    staff: staffRoster(options.extraStaff),
    faults: { ...options.faults },
  };
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`sandbox option ${name} must be a positive number`);
  return value;
}
