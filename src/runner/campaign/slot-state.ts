import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AttemptResult, Verdict } from '../../grader/result';

/** Where a campaign's attempts are written until they are whole, and where set-aside ones go. */
export const STAGING_DIR = '.staging';
export const SUPERSEDED_DIR = '.superseded';

/**
 * A slot's folder as a resume finds it: a verdict, a folder an abrupt stop left without a
 * result.json (half), or nothing yet.
 */
export type SlotState = { kind: 'missing' } | { kind: 'half' } | { kind: 'verdict'; verdict: Verdict; result: AttemptResult };

export function slotState(campaignDir: string, path: string): SlotState {
  const dir = join(campaignDir, path);
  if (!existsSync(dir)) return { kind: 'missing' };
  const file = join(dir, 'result.json');
  if (!existsSync(file)) return { kind: 'half' };
  const result = JSON.parse(readFileSync(file, 'utf8')) as AttemptResult;
  return { kind: 'verdict', verdict: result.verdict, result };
}

/** Whether a resume runs the slot again: a half folder and an incomplete attempt always, an errored one when asked. */
export function needsRun(state: SlotState, retryErrored: boolean): boolean {
  if (state.kind !== 'verdict') return true;
  if (state.verdict === 'incomplete') return true;
  return retryErrored && state.verdict === 'error';
}

/**
 * Moves a slot's folder out of the campaign's results into .superseded/<session>/, kept for
 * inspection and counted in the manifest, never read as a result again.
 */
export function supersede(campaignDir: string, path: string, session: number): void {
  const to = join(campaignDir, SUPERSEDED_DIR, `session-${session}`, path);
  mkdirSync(dirname(to), { recursive: true });
  rmSync(to, { recursive: true, force: true });
  renameSync(join(campaignDir, path), to);
}

/** A slot's staging folder, emptied: the attempt is written there and moved into place once whole. */
export function stagingFor(campaignDir: string, path: string): string {
  const dir = join(campaignDir, STAGING_DIR, path);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dirname(dir), { recursive: true });
  return dir;
}

/** Moves a finished attempt (one with result.json) from staging into its slot; one without stays behind. */
export function publish(campaignDir: string, path: string): boolean {
  const from = join(campaignDir, STAGING_DIR, path);
  if (!existsSync(join(from, 'result.json'))) return false;
  const to = join(campaignDir, path);
  mkdirSync(dirname(to), { recursive: true });
  renameSync(from, to);
  return true;
}
