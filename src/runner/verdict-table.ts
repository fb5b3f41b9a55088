import type { AttemptResult } from '../grader/result';
import { formatTable } from './table';

/** The verdict of an attempt as the terminal shows it: one line per check, then the verdict. */
export function verdictTable(result: AttemptResult, dir?: string): string {
  const rows = result.checks.map((c) => [
    c.id,
    c.type,
    c.required ? 'required' : 'optional',
    c.breach ? 'BREACH' : c.passed ? 'pass' : 'FAIL',
    c.detail,
  ]);
  const head = `${result.task} seed ${result.seed} rep ${result.rep} (${result.cell}): ${result.verdict.toUpperCase()}`;
  const tail = [
    ...(result.error ? [`error: ${result.error}`] : []),
    ...(result.why ? [result.why] : []),
    ...(result.tampered ?? []).map((t) => `  differs: ${t}`),
  ].map((l) => l + '\n').join('');
  const where = dir ? `attempt: ${dir}\n` : '';
  return `${head}\n${formatTable(['check', 'type', 'kind', 'result', 'detail'], rows)}${tail}${where}`;
}
