import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packHash } from '../../task-pack/fingerprint';
import { codeVersion } from '../code-version';
import type { CampaignPlan } from './plan';
import { llmLimits, llmSettings } from '../llm-agent';

export const MANIFEST_FILE = 'campaign.json';

/** What a campaign is: resuming it with anything here changed would pool unlike attempts. */
export interface CampaignIdentity {
  name: string;
  code_version: string;
  tasks: { task: string; pack_hash: string; turn_budgets_s: number[]; grading_date: string }[];
  seeds: number[];
  reps: number;
  agents: { cell: string; agent: string; agent_name: string; model: string | null; interface: string; tools?: string | null; condition: string; sandbox: boolean; llm_api?: string; llm_endpoint?: string; adapter_limits?: ReturnType<typeof llmLimits> }[];
  conditions: string[];
  /** Seconds per turn overriding every task's budgets, or null for the tasks' own. */
  timeout_override_s: number | null;
}

/** One run of `erp bench campaign` over the campaign: a first run or a resume. */
export interface CampaignSession {
  started_wall: string;
  finished_wall: string | null;
  jobs: number;
  /** Attempts this session ran, by verdict; interrupted ones are `incomplete`. */
  ran: Record<string, number>;
  /** Slots set aside to run again: errored attempts (--retry-errored), incomplete ones, half-written folders. */
  superseded: number;
  interrupted: boolean;
}

/** runs/<name>/campaign.json. */
export interface CampaignManifest extends CampaignIdentity {
  attempts: number;
  sessions: CampaignSession[];
}

export function campaignIdentity(plan: CampaignPlan): CampaignIdentity {
  return {
    name: plan.spec.name,
    code_version: codeVersion(),
    tasks: plan.packs.map((p) => ({ task: p.slug, pack_hash: packHash(p), turn_budgets_s: p.spec.turns.map((t) => t.budget), grading_date: p.spec.grading_date })),
    seeds: plan.spec.seeds,
    reps: plan.spec.reps,
    agents: plan.cells.map((c) => {
      const llm = c.llm ? llmSettings(c.llm) : undefined;
      return { cell: c.cell, agent: c.agentText, ...c.identity, condition: c.condition, sandbox: c.sandbox, ...(llm ? { llm_api: llm.api, llm_endpoint: llm.baseUrl, adapter_limits: llmLimits(llm) } : {}) };
    }),
    conditions: plan.spec.conditions,
    timeout_override_s: plan.spec.timeout ?? null,
  };
}

export function readManifest(dir: string): CampaignManifest | undefined {
  const file = join(dir, MANIFEST_FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as CampaignManifest) : undefined;
}

export function writeManifest(dir: string, manifest: CampaignManifest): void {
  writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
}

/** The fields of `identity` that differ from the recorded campaign's, by name; empty when it may resume. */
export function identityChanges(recorded: CampaignIdentity, identity: CampaignIdentity): string[] {
  const keys: (keyof CampaignIdentity)[] = ['name', 'code_version', 'tasks', 'seeds', 'reps', 'agents', 'conditions', 'timeout_override_s'];
  return keys.filter((k) => JSON.stringify(recorded[k]) !== JSON.stringify(identity[k]));
}
