/** A consent flow a call can wait for: run by this process, or joined from another one. */
import type { PendingConsentDetails, TokenSet } from '../oauth/index.js';

export interface PendingFlow extends Partial<PendingConsentDetails> {
  scopes: string[];
  startedAt: number;
  /** Set when another process runs the flow. */
  remote: boolean;
  result: Promise<TokenSet>;
}
