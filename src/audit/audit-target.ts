/**
 * Where audit lines go: stderr (`--audit-log -`), or a file opened once, append-only, created
 * 0600, each line one write. A request only queues its line: a slow disk holds the queue, never
 * the request, and a full queue drops lines and says how many in the next line it writes. A
 * failed write is reported once (until a write succeeds again) and never fails a request.
 * SIGHUP reopens the file after logrotate moved it (`reopen`).
 * @see docs/audit-log.md, SECURITY.md LOG-05, LOG-06
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { AuditEvent, AuditLog } from './audit-event.js';
import { auditLine } from './audit-line.js';

/** Lines waiting for the disk at most; far above a busy server's burst, small enough to hold in memory. */
const MAX_QUEUED_LINES = 10_000;

export interface AuditTarget extends AuditLog {
  /** `stderr`, or the file's path. */
  readonly description: string;
  /** Opens the file's path again (after logrotate moved it); nothing for stderr. Lines queued meanwhile wait. */
  reopen(): void;
  /** Writes what is queued, then closes the file. */
  close(): Promise<void>;
}

export interface AuditTargetOptions {
  /** Told once per failure episode, e.g. a full disk; the text is school-mcp's own. */
  readonly onFailure: (message: string, error: unknown) => void;
  readonly now?: () => Date;
  readonly maxQueuedLines?: number;
  /** Writes one line to stderr; tests collect. */
  readonly stderr?: (line: string) => void;
}

/** `-` is stderr; anything else a file path. Opening the file fails here, before the server serves. */
export async function openAuditTarget(target: string, options: AuditTargetOptions): Promise<AuditTarget> {
  const now = options.now ?? (() => new Date());
  if (target === '-') {
    const write = options.stderr ?? ((line: string) => process.stderr.write(line));
    return {
      description: 'stderr',
      record: (event) => write(`${auditLine(event, now())}\n`),
      reopen: () => undefined,
      close: async () => undefined,
    };
  }
  return AuditFile.open(target, options, now);
}

// O_NOFOLLOW: a symbolic link planted at the path does not send the lines elsewhere.
const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;

class AuditFile implements AuditTarget {
  readonly #queue: string[] = [];
  #dropped = 0;
  #reopenAsked = false;
  #failing = false;
  #closed = false;
  #writer: Promise<void> | undefined;

  private constructor(
    readonly description: string,
    private handle: FileHandle,
    private readonly options: AuditTargetOptions,
    private readonly now: () => Date,
  ) {}

  static async open(path: string, options: AuditTargetOptions, now: () => Date): Promise<AuditFile> {
    return new AuditFile(path, await open(path, APPEND_FLAGS, 0o600), options, now);
  }

  record(event: AuditEvent): void {
    if (this.#closed) return;
    if (this.#queue.length >= (this.options.maxQueuedLines ?? MAX_QUEUED_LINES)) {
      this.#dropped += 1;
      return;
    }
    this.#queue.push(`${auditLine(event, this.now())}\n`);
    this.#startWriting();
  }

  reopen(): void {
    if (this.#closed) return;
    this.#reopenAsked = true;
    this.#startWriting();
  }

  async close(): Promise<void> {
    this.#closed = true;
    while (this.#writer !== undefined) await this.#writer;
    await this.handle.close();
  }

  #startWriting(): void {
    this.#writer ??= this.#writeQueued().finally(() => {
      this.#writer = undefined;
      // A line queued while the last write settled.
      if (this.#queue.length > 0 || this.#reopenAsked) this.#startWriting();
    });
  }

  async #writeQueued(): Promise<void> {
    while (this.#queue.length > 0 || this.#reopenAsked) {
      if (this.#reopenAsked) {
        this.#reopenAsked = false;
        await this.#reopenNow();
      }
      if (this.#dropped > 0) {
        const dropped = this.#dropped;
        this.#dropped = 0;
        if (!(await this.#write(`${auditLine({ event: 'audit_gap', outcome: 'ok', dropped }, this.now())}\n`)))
          this.#dropped += dropped;
      }
      const line = this.#queue.shift();
      if (line !== undefined && !(await this.#write(line))) this.#dropped += 1;
    }
  }

  /** One line, one write (a short write, as on a nearly full disk, is finished by a second). */
  async #write(line: string): Promise<boolean> {
    const bytes = Buffer.from(line, 'utf8');
    try {
      let written = 0;
      while (written < bytes.length) written += (await this.handle.write(bytes, written)).bytesWritten;
      this.#failing = false;
      return true;
    } catch (error) {
      this.#fail('cannot write to the audit log; lines are being lost until a write succeeds', error);
      return false;
    }
  }

  async #reopenNow(): Promise<void> {
    let next: FileHandle;
    try {
      next = await open(this.description, APPEND_FLAGS, 0o600);
    } catch (error) {
      // The old file keeps the lines rather than losing them.
      this.#fail('cannot reopen the audit log; writing on to the file it had open', error);
      return;
    }
    const previous = this.handle;
    this.handle = next;
    await previous.close().catch(() => undefined);
  }

  #fail(message: string, error: unknown): void {
    if (this.#failing) return;
    this.#failing = true;
    this.options.onFailure(message, error);
  }
}
