/**
 * Many staff members calling tools at once through the deployment, with a canary per person.
 * `concurrency` workers take calls in turn: call k is made by person k mod N, so one person's
 * calls may overlap. Each person's first call writes their canary to their account through a
 * step-up (the first sign-in does not grant `account:write`); later calls read who they are
 * (`who_am_i`), their account (`get_account`) or the courses. Every answer is searched for every
 * other person's canary, subject, name and email: one found is a cross-user leak. An answer that
 * says the person must sign in again is a lost grant. An attempt that fails (a transport error, a
 * 5xx from the load balancer or an instance, or an error result saying the store is unavailable)
 * is retried, as a client would, up to `maxAttempts`.
 */
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { StaffSession } from './staff-session.js';

export interface LoadPlan {
  readonly calls: number;
  readonly concurrency: number;
  readonly maxAttempts: number;
  /** Between a failed attempt and the next; 0 retries at once. */
  readonly retryDelayMs: number;
  /** An attempt that takes longer is abandoned and counted as a hang. */
  readonly attemptTimeoutMs: number;
}

interface FailedAttempt {
  readonly user: string;
  readonly tool: string;
  readonly message: string;
  readonly ms: number;
  /** `performance.now()` when it failed. */
  readonly at: number;
}

interface LostGrant {
  readonly user: string;
  readonly message: string;
}

export interface LoadReport {
  /** Calls answered with a result that is not an error. */
  readonly answered: number;
  readonly unanswered: readonly string[];
  readonly failedAttempts: readonly FailedAttempt[];
  readonly hangs: number;
  readonly leaks: readonly string[];
  /** Calls answered "sign in again": whose grant was lost, and what they were told. */
  readonly lostGrants: readonly LostGrant[];
  /** Error results other than a lost grant, and answers that did not name their own person. */
  readonly wrongAnswers: readonly string[];
  readonly stepUps: number;
  /** Milliseconds per answered call, retries included. */
  readonly durations: readonly number[];
  readonly wallMs: number;
}

export interface RunningLoad {
  /** Calls finished so far, answered or not. */
  finished(): number;
  readonly done: Promise<LoadReport>;
}

interface Marker {
  readonly owner: number;
  readonly text: string;
}

/** Pure: what names each person; the canary and subject are unique, names and emails too. */
export function identityMarkers(sessions: readonly Pick<StaffSession, 'member' | 'canary'>[]): Marker[] {
  return sessions.flatMap(({ member, canary }, owner) =>
    [canary, member.sub, member.name, member.email].map((text) => ({ owner, text })),
  );
}

/** Pure: the other people's markers in `text`. */
export function foreignMarkers(text: string, owner: number, markers: readonly Marker[]): string[] {
  return markers.filter((marker) => marker.owner !== owner && text.includes(marker.text)).map((marker) => marker.text);
}

/**
 * Pure: an error result that tells the agent to call again shortly: the shared store did not
 * answer, or another instance's refresh of this person's grant had not ended within the wait.
 */
export function saysRetryShortly(text: string): boolean {
  return /\bSTORE_UNAVAILABLE\b|temporarily_unavailable|\bOAUTH_LOCK_TIMEOUT\b/.test(text);
}

/**
 * Pure: the client gave up waiting for an answer. An answer that names a timeout (another
 * instance held this person's refresh lock too long: OAUTH_LOCK_TIMEOUT) was answered, and is
 * only a failed attempt to retry.
 */
export function attemptHung(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout;
}

/** Pure: an answer that says the person's school grant is gone. */
export function saysSignInAgain(text: string): boolean {
  return /no longer signed in|sign in at the school once more|OAUTH_SIGN_IN_REQUIRED/i.test(text);
}

type ToolCall = { readonly name: string; readonly arguments: Record<string, unknown> };

function callFor(index: number, people: number, session: StaffSession): ToolCall {
  if (index < people) return { name: 'update_account', arguments: { name: session.canary } };
  const kinds: ToolCall[] = [
    { name: 'who_am_i', arguments: {} },
    { name: 'get_account', arguments: {} },
    { name: 'list_courses', arguments: { per_page: 5 } },
  ];
  return kinds[Math.floor(index / people) % kinds.length]!;
}

function textOf(result: unknown): string {
  const content = (result as { content?: { text?: string }[] }).content ?? [];
  return (
    content.map((item) => item.text ?? '').join('\n') +
    JSON.stringify((result as { structuredContent?: unknown }).structuredContent ?? '')
  );
}

export function runLoad(sessions: readonly StaffSession[], plan: LoadPlan): RunningLoad {
  const markers = identityMarkers(sessions);
  const canaryWritten = new Set<number>();
  const report = {
    answered: 0,
    unanswered: [] as string[],
    failedAttempts: [] as FailedAttempt[],
    hangs: 0,
    leaks: [] as string[],
    lostGrants: [] as LostGrant[],
    wrongAnswers: [] as string[],
    durations: [] as number[],
  };
  let next = 0;
  let finished = 0;
  const loadStarted = performance.now();

  const checkLeaks = (owner: number, call: ToolCall, text: string) => {
    for (const marker of foreignMarkers(text, owner, markers))
      report.leaks.push(`${call.name} for ${sessions[owner]!.member.sub} named ${marker}`);
  };
  const checkIdentity = (owner: number, call: ToolCall, text: string, canaryBefore: boolean) => {
    const session = sessions[owner]!;
    const who = session.member.sub;
    if (call.name === 'who_am_i' && !text.includes(session.member.name))
      report.wrongAnswers.push(`who_am_i for ${who} did not name them: ${text.slice(0, 200)}`);
    if (call.name === 'get_account' && !text.includes(who))
      report.wrongAnswers.push(`get_account for ${who} is not theirs: ${text.slice(0, 200)}`);
    if (
      (call.name === 'update_account' || (call.name === 'get_account' && canaryBefore)) &&
      !text.includes(session.canary)
    )
      report.wrongAnswers.push(`${call.name} for ${who} lacks their canary: ${text.slice(0, 200)}`);
  };

  const one = async (index: number) => {
    const owner = index % sessions.length;
    const session = sessions[owner]!;
    const call = callFor(index, sessions.length, session);
    const canaryBefore = canaryWritten.has(owner);
    const began = performance.now();
    for (let attempt = 1; attempt <= plan.maxAttempts; attempt++) {
      const tried = performance.now();
      try {
        const result = await session.client.callTool(
          { name: call.name, arguments: call.arguments },
          { timeout: plan.attemptTimeoutMs },
        );
        const text = textOf(result);
        const isError = (result as { isError?: boolean }).isError === true;
        if (isError && saysRetryShortly(text)) throw new Error(text.slice(0, 200));
        checkLeaks(owner, call, text);
        // Said by a failed call, or by who_am_i answering that the person is no longer signed in.
        if (saysSignInAgain(text)) {
          report.lostGrants.push({
            user: session.member.sub,
            message: `${call.name} for ${session.member.sub} ${Math.round((performance.now() - loadStarted) / 1000)} s into the run: ${text.slice(0, 200)}`,
          });
        } else if (isError) {
          report.wrongAnswers.push(`${call.name} for ${session.member.sub} failed: ${text.slice(0, 300)}`);
        } else {
          report.answered += 1;
          report.durations.push(performance.now() - began);
          if (call.name === 'update_account') canaryWritten.add(owner);
          checkIdentity(owner, call, text, canaryBefore);
        }
        return;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (attemptHung(error)) report.hangs += 1;
        report.failedAttempts.push({
          user: session.member.sub,
          tool: call.name,
          message,
          ms: performance.now() - tried,
          at: performance.now(),
        });
        if (plan.retryDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, plan.retryDelayMs));
      }
    }
    report.unanswered.push(`${call.name} for ${session.member.sub}: ${report.failedAttempts.at(-1)?.message ?? ''}`);
  };

  const done = Promise.all(
    Array.from({ length: plan.concurrency }, async () => {
      while (next < plan.calls) {
        const index = next++;
        await one(index);
        finished += 1;
      }
    }),
  ).then(() => ({
    ...report,
    stepUps: sessions.reduce((sum, session) => sum + session.stepUps, 0),
    wallMs: performance.now() - loadStarted,
  }));
  return { finished: () => finished, done };
}
