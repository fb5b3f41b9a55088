import type { Verdict } from '../../grader/result';
import type { BarStream } from '../progress-bar';

/** Counts of a campaign's slots by how they stand. */
export interface CampaignCounts {
  total: number;
  passing: number;
  failing: number;
  /** error and tampered: attempts that were not graded pass or fail. */
  errored: number;
  incomplete: number;
  running: number;
}

export function countVerdict(counts: CampaignCounts, verdict: Verdict): void {
  if (verdict === 'pass') counts.passing++;
  else if (verdict === 'fail') counts.failing++;
  else if (verdict === 'incomplete') counts.incomplete++;
  else counts.errored++;
}

export function doneOf(c: CampaignCounts): number {
  return c.passing + c.failing + c.errored;
}

function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m ${String(s % 60).padStart(2, '0')}s` : `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

/**
 * Time left: the mean wall time of this session's finished attempts, times the attempts still to
 * run, over the lanes that run them. Null until one has finished.
 */
export function timeLeftSeconds(finishedSeconds: readonly number[], remaining: number, jobs: number): number | null {
  if (remaining === 0) return 0;
  if (finishedSeconds.length === 0) return null;
  const mean = finishedSeconds.reduce((a, b) => a + b, 0) / finishedSeconds.length;
  return (mean * remaining) / Math.max(1, Math.min(jobs, remaining));
}

export function progressLine(name: string, c: CampaignCounts, left: number | null): string {
  const remaining = c.total - doneOf(c);
  return `${name}: ${doneOf(c)}/${c.total} done · ${c.passing} passing · ${c.failing} failing · ${c.errored} errored` +
    `${c.incomplete ? ` · ${c.incomplete} incomplete` : ''} · ${c.running} running · ` +
    (remaining === 0 ? 'finished' : left === null ? 'time left unknown' : `about ${duration(left)} left`);
}

/**
 * One progress display for the whole campaign: on a terminal one line redrawn in place; elsewhere
 * (a pipe, a log) a line each time an attempt starts or ends.
 */
export class CampaignProgress {
  private lastLine = '';
  constructor(private readonly name: string, private readonly stream: BarStream) {}

  show(counts: CampaignCounts, left: number | null): void {
    const line = progressLine(this.name, counts, left);
    if (line === this.lastLine) return;
    this.lastLine = line;
    if (this.stream.isTTY) this.stream.write(`\r${line.slice(0, (this.stream.columns ?? 120) - 1)}\u001b[K`);
    else this.stream.write(line + '\n');
  }

  /** A line of its own (a notice), without breaking the redrawn one. */
  note(text: string): void {
    this.stream.write(this.stream.isTTY ? `\r${text}\u001b[K\n${this.lastLine}` : text + '\n');
  }

  end(): void {
    if (this.stream.isTTY && this.lastLine) this.stream.write('\n');
  }
}
