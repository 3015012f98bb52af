/**
 * What the command table's flags hold once `parseCommandLine` has read them, as the parsers of
 * each mode's options read them. Types only.
 */

export interface ParsedValues {
  readonly school?: string;
  readonly demo?: boolean;
  readonly openapi?: string;
  readonly toolsets?: string;
  readonly 'read-only'?: boolean;
  readonly tools?: string;
  readonly 'exclude-tools'?: string;
  readonly scopes?: string;
  readonly 'client-id'?: string;
  readonly 'client-secret'?: string;
  readonly 'client-secret-file'?: string;
  readonly 'client-metadata-url'?: string;
  readonly 'callback-port'?: string;
  readonly 'no-browser'?: boolean;
  readonly paste?: boolean;
  readonly 'consent-wait'?: string;
  readonly 'link-wait'?: string;
  readonly 'config-dir'?: string;
  readonly 'log-level'?: string;
  readonly json?: boolean;
  readonly http?: boolean;
  readonly host?: string;
  readonly port?: string;
  readonly 'http-secret'?: string;
  readonly 'http-secret-file'?: string;
  readonly 'allow-remote'?: boolean;
  readonly 'allowed-origin'?: string[];
  readonly 'allowed-host'?: string[];
  readonly 'auto-approve'?: boolean;
  readonly data?: string;
  readonly integration?: string[];
  readonly 'extra-staff'?: string;
  readonly hosted?: boolean;
  readonly 'public-url'?: string;
  readonly store?: string;
  readonly 'store-key-file'?: string;
  readonly 'drain-seconds'?: string;
  readonly 'audit-log'?: string;
  readonly 'trust-proxy'?: boolean;
  readonly 'registration-limit'?: string;
  readonly 'registration-cap'?: string;
  readonly 'registration-expiry'?: string;
}
