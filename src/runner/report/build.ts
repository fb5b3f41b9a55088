import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AttemptResult } from '../../grader/result';
import { campaignMetrics, collectResults, CONVENTIONS, flaggedAttempts, seedMetrics, type GroupMetrics, type MetricsOptions, type SeedMetrics } from '../metrics';
import { csvTables, markdownReport, reportTables, textReport, type ReportTable } from './tables';

/** Everything `erp bench report` shows, in every format. */
export interface Report {
  attempts: number;
  groups: GroupMetrics[];
  seeds: SeedMetrics[];
  /** Attempts a reader must not miss: tampered with, or interrupted. */
  flagged: string[];
  conventions: string[];
  tables: ReportTable[];
}

export function buildReport(results: readonly AttemptResult[], o: MetricsOptions = {}): Report {
  const groups = campaignMetrics(results, o);
  const seeds = seedMetrics(results, o);
  return { attempts: results.length, groups, seeds, flagged: flaggedAttempts(results), conventions: CONVENTIONS, tables: reportTables(groups, seeds) };
}

export function reportFrom(targets: readonly string[], runsDir: string | undefined, o: MetricsOptions = {}): { report: Report; results: AttemptResult[] } {
  const results = collectResults(targets, runsDir);
  return { report: buildReport(results, o), results };
}

export function reportText(r: Report): string {
  if (r.attempts === 0) return 'no attempts found\n';
  return `${textReport(r.tables)}${r.flagged.map((l) => l + '\n').join('')}\n${r.conventions.join('\n')}\n`;
}

export function writeMarkdown(r: Report, file: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, markdownReport(r.tables, [...r.flagged, ...r.conventions]));
}

/** One CSV file per table in `dir`; returns their paths. */
export function writeCsv(r: Report, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  return csvTables(r.tables).map((t) => {
    const file = join(dir, t.name);
    writeFileSync(file, t.text);
    return file;
  });
}
