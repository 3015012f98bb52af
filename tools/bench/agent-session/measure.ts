/** The agent session as a row of the bench: its figures, or why there are none. */
import { writeFile } from 'node:fs/promises';
import type { Measured } from '../results.js';
import { loadTokenCounter } from '../token-count.js';
import { agentFigures, type AgentFigures } from './figures.js';
import { PHRASINGS_FILE, readPhrasings, recallAtThree, sandboxCatalogue } from './search-recall.js';
import { runAgentSessions, type AgentSessionResult } from './session.js';

/** What `--agent-record` writes: the session's whole record, and the figures counted on it. */
export interface AgentRecord {
  readonly result: AgentSessionResult;
  readonly figures: AgentFigures;
}

/** `recordFile`, when given, receives the session's record as JSON (`--agent-record`). */
export async function measureAgentSession(
  schoolMcpMain: string | undefined,
  progress: (line: string) => void,
  recordFile?: string,
): Promise<Measured<AgentFigures>> {
  const countTokens = loadTokenCounter();
  if (!countTokens) return { ok: false, reason: 'the tokenizer is not installed (tools/bench/node_modules)' };
  progress('agent session: the 15 administrator tasks, twice, then the 12 others');
  try {
    const result = await runAgentSessions({ countTokens, ...(schoolMcpMain === undefined ? {} : { schoolMcpMain }) });
    const catalogue = await sandboxCatalogue();
    const phrasings = await readPhrasings(PHRASINGS_FILE);
    const figures = {
      ...agentFigures(result, countTokens),
      searchRecall: {
        tuning: recallAtThree(catalogue, phrasings, 'tuning'),
        heldBack: recallAtThree(catalogue, phrasings, 'held-back'),
      },
    };
    if (recordFile !== undefined)
      await writeFile(recordFile, JSON.stringify({ result, figures } satisfies AgentRecord));
    return { ok: true, value: figures };
  } catch (error) {
    return {
      ok: false,
      reason: (error instanceof Error ? error.message : String(error)).replace(/\n/g, ' ').slice(0, 400),
    };
  }
}
