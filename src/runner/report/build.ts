import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AttemptResult } from '../../grader/result';
import { campaignMetrics, collectAttempts, CONVENTIONS, flaggedAttempts, seedMetrics, type GroupMetrics, type MetricsOptions, type SeedMetrics } from '../metrics';
import { codeVersion } from '../code-version';
import { failingChecks, headerLines, nullCheckRates, pairedDifferences, passHatCurves, reportHeader, type ReportHeader } from './analysis';
import { csvTables, markdownReport, reportTables, textReport, type ReportTable } from './tables';

/** Everything `erp bench report` shows, in every format. */
export interface Report {
  /** What the report covers: tasks, seeds, agents and models, interfaces, conditions, when graded. */
  header: ReportHeader;
  /** The header as text: with the code version of the erp that wrote the report. */
  header_lines: string[];
  attempts: number;
  groups: GroupMetrics[];
  seeds: SeedMetrics[];
  /** Attempts a reader must not miss: tampered with, or interrupted. */
  flagged: string[];
  conventions: string[];
  tables: ReportTable[];
}

const ANALYSIS_CONVENTIONS = [
  'null checks: the check rate of the null agent (which does nothing) on the same task, where the report holds its attempts: the floor a cell\'s check rate starts from.',
  'Paired difference: per scenario both cells attempted, a\'s pass rate minus b\'s; the mean over the scenarios with a 95% normal interval (1.96 standard errors over scenarios).',
  'Per attempt and per pass: totals divided by the attempts that count and by the passes; with no pass, per pass is undefined and said so.',
];

export function buildReport(results: readonly AttemptResult[], o: MetricsOptions = {}): Report {
  const groups = campaignMetrics(results, o);
  const seeds = seedMetrics(results, o);
  const header = reportHeader(results);
  const analyses = { failing: failingChecks(results), curves: passHatCurves(results), pairs: pairedDifferences(results), nullRates: nullCheckRates(results) };
  return {
    header, header_lines: headerLines(header, codeVersion(), new Date().toISOString()),
    attempts: results.length, groups, seeds, flagged: flaggedAttempts(results), conventions: [...CONVENTIONS, ...ANALYSIS_CONVENTIONS], tables: reportTables(groups, seeds, analyses),
  };
}

export function reportFrom(targets: readonly string[], runsDir: string | undefined, o: MetricsOptions = {}): { report: Report; results: AttemptResult[]; folderOf: Map<AttemptResult, string> } {
  const attempts = collectAttempts(targets, runsDir);
  const results = attempts.map((a) => a.result);
  return { report: buildReport(results, o), results, folderOf: new Map(attempts.map((a) => [a.result, a.folder])) };
}

export function reportText(r: Report): string {
  if (r.attempts === 0) return 'no attempts found\n';
  return `${r.header_lines.join('\n')}\n\n${textReport(r.tables)}${r.flagged.map((l) => l + '\n').join('')}\n${r.conventions.join('\n')}\n`;
}

export function writeMarkdown(r: Report, file: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, markdownReport(r.tables, [...r.flagged, ...r.conventions], r.header_lines));
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
