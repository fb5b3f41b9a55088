import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPolicyTurn } from '../../runner/policy-agent';
import type { TaskCode } from '../../task-pack/code';
import type { OracleTurnFile } from './layout';

/**
 * A step's solution in an exported Harbor task: the pack's oracle plays the turn in `main`, with
 * the agent's token from ERP_TOKEN against ERP_URL, as the runner plays it (runPolicyTurn). The
 * bundle the export builds holds this and the pack's code; it enters `main` only when Harbor's
 * oracle agent runs.
 */
export async function playOracleStep(code: TaskCode, turnFile: string, workspace = process.cwd()): Promise<number> {
  const url = process.env.ERP_URL;
  const token = process.env.ERP_TOKEN;
  if (!url || !token) {
    process.stderr.write('ERP_URL and ERP_TOKEN must be set.\n');
    return 2;
  }
  const turn = JSON.parse(readFileSync(turnFile, 'utf8')) as OracleTurnFile;
  const out = join(tmpdir(), `oracle-turn-${turn.index}`);
  const outcome = await runPolicyTurn({
    policy: code.oracle, erpUrl: url, erpToken: token, workspace,
    turn: { index: turn.index, date: turn.date, from: turn.from, request: turn.request, prompt: turn.prompt },
    budgetMs: turn.budget_s * 1000, stdoutFile: `${out}.stdout`, stderrFile: `${out}.stderr`,
  });
  process.stdout.write(readFileSync(`${out}.stdout`, 'utf8'));
  process.stderr.write(readFileSync(`${out}.stderr`, 'utf8'));
  return outcome.exit_code ?? 1;
}
