import { writeFileSync } from 'node:fs';
import { ErpClient } from '../client/http-client';
import type { AgentPolicy, TurnInfo } from '../task-pack/code';
import type { ProcessOutcome } from './process-agent';

export interface PolicyTurn {
  policy: AgentPolicy;
  erpUrl: string;
  erpToken: string;
  workspace: string;
  turn: TurnInfo;
  budgetMs: number;
  stdoutFile: string;
  stderrFile: string;
  /** Aborted when the runner is interrupted: the turn stops being waited for. */
  signal?: AbortSignal;
}

/**
 * Runs one turn of an in-process policy (oracle, negative control, null) over HTTP with the agent's
 * token. Its log lines are its stdout; a throw is exit 1 with the error on stderr. A policy cannot
 * be killed at the budget: the turn ends there and is marked timed out.
 */
export async function runPolicyTurn(t: PolicyTurn): Promise<ProcessOutcome> {
  const lines: string[] = [];
  const client = new ErpClient({ baseUrl: t.erpUrl, token: t.erpToken, keepAlive: true });
  const started = process.hrtime.bigint();
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  let stderr = '';
  const outcome = await Promise.race([
    t.policy({ client, erpUrl: t.erpUrl, erpToken: t.erpToken, turn: t.turn, workspace: t.workspace, log: (line) => lines.push(line) }).then(
      () => 'done' as const,
      (err: unknown) => {
        stderr = err instanceof Error ? (err.stack ?? err.message) : String(err);
        return 'failed' as const;
      },
    ),
    new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), t.budgetMs))),
    new Promise<'interrupted'>((resolve) => {
      if (t.signal?.aborted) resolve('interrupted');
      t.signal?.addEventListener('abort', (onAbort = () => resolve('interrupted')), { once: true });
    }),
  ]);
  clearTimeout(timer);
  if (onAbort) t.signal?.removeEventListener('abort', onAbort);
  client.close();
  writeFileSync(t.stdoutFile, lines.map((l) => l + '\n').join(''));
  writeFileSync(t.stderrFile, stderr ? stderr + '\n' : '');
  return {
    exit_code: outcome === 'done' ? 0 : outcome === 'failed' ? 1 : null,
    signal: outcome === 'interrupted' ? 'interrupted' : null,
    timed_out: outcome === 'timeout',
    duration_s: Number(process.hrtime.bigint() - started) / 1e9,
  };
}

export const nullPolicy: AgentPolicy = async () => undefined;
