import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';
import { nameWord } from '../agent-identity';
import { parseLlmApi } from '../../agents/llm/apis';
import type { LlmFlags } from '../llm-agent';

/**
 * A campaign as the operator declares it (seed 000 §2: a campaign declares its repetitions and
 * seeds): every task × seed × rep is played by every agent under every condition.
 */
export interface CampaignSpec {
  /** The campaign's folder under the runs folder: runs/<name>/. */
  name: string;
  tasks: string[];
  tasksDir?: string;
  seeds: number[];
  reps: number;
  agents: CampaignAgent[];
  /** `clean`, or a fault condition every task declares (a profile name or a SPEC, seed 000 §7.1). */
  conditions: string[];
  /** Seconds per turn overriding the tasks' budgets (a declared change, recorded in the manifest). */
  timeout?: number;
}

export interface CampaignAgent {
  /** As `--agent` takes it: oracle, null, neg:<name>, cmd:<command>. */
  agent: string;
  /** `--agent-name`, `--model`, `--interface`: required or refused as for `erp bench run`. */
  name?: string;
  model?: string;
  interface?: string;
  /** `--tool-budget`, for an agent working through erp mcp: a whole number or `all`. */
  toolBudget?: string;
  /** false runs a cmd: agent bare, recorded as unsandboxed. */
  sandbox?: boolean;
  passEnv?: string[];
  agentFiles?: string[];
  /** `--net-allow` and `--limit`, as `erp bench run` takes them. */
  netAllow?: string[];
  limits?: string[];
  /** The llm agent's endpoint and limits, as `erp bench run --llm-*` takes them; the key stays in the runner's environment. */
  llm?: LlmFlags;
}

const TOP_KEYS = ['name', 'tasks', 'tasks_dir', 'seeds', 'reps', 'agents', 'conditions', 'timeout'];
const AGENT_KEYS = ['agent', 'name', 'model', 'interface', 'tool_budget', 'sandbox', 'pass_env', 'agent_files', 'net_allow', 'limits', 'llm'];
const LLM_KEYS = ['api', 'base_url', 'key_env', 'max_steps', 'max_retries', 'price_in', 'price_out', 'price_cached_in'];

function fail(where: string, what: string): never {
  throw new Error(`${where}: ${what}.`);
}

/** YAML reads a bare null, true, yes, no or number as that value, not as the word: say how to keep the word. */
const QUOTE_HINT = ": YAML reads a bare null (or true, false, a number) as that value, not a word; quote it, e.g. - 'null'";

function strings(value: unknown, where: string): string[] {
  if (Array.isArray(value) && value.some((v) => v === null || typeof v === 'boolean' || typeof v === 'number')) fail(where, `must be a list of words${QUOTE_HINT}`);
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v.trim() === '')) fail(where, 'must be a list of words');
  return (value as string[]).map((v) => v.trim());
}

function seedList(value: unknown, where: string): number[] {
  const list = typeof value === 'string' ? value.split(',').map((s) => Number(s.trim())) : value;
  if (!Array.isArray(list) || list.length === 0 || list.some((s) => !Number.isInteger(s) || s < 0)) fail(where, 'must be a list of whole numbers of 0 or more');
  return [...new Set(list as number[])];
}

function positive(value: unknown, where: string): number {
  if (!Number.isInteger(value) || (value as number) < 1) fail(where, 'must be a whole number of 1 or more');
  return value as number;
}

function unknownKeys(obj: Record<string, unknown>, allowed: readonly string[], where: string): void {
  const extra = Object.keys(obj).filter((k) => !allowed.includes(k));
  if (extra.length) fail(where, `unknown key ${extra.join(', ')} (allowed: ${allowed.join(', ')})`);
}

/** A campaign name is a folder name: letters, digits, dot, dash, underscore. */
export function checkCampaignName(name: string, where = 'name'): string {
  if (!name || nameWord(name) !== name) fail(where, `'${name}' must be letters, digits, dots, dashes and underscores`);
  return name;
}

/** The spec with its lists made unique and checked; throws naming the field that is wrong. */
export function checkSpec(spec: CampaignSpec, where = 'campaign'): CampaignSpec {
  checkCampaignName(spec.name, `${where} name`);
  if (spec.tasks.length === 0) fail(`${where} tasks`, 'name at least one task');
  if (spec.agents.length === 0) fail(`${where} agents`, 'name at least one agent');
  positive(spec.reps, `${where} reps`);
  if (spec.timeout !== undefined) positive(spec.timeout, `${where} timeout`);
  return { ...spec, tasks: [...new Set(spec.tasks)], seeds: seedList(spec.seeds, `${where} seeds`), conditions: [...new Set(spec.conditions.length ? spec.conditions : ['clean'])] };
}

function agentFrom(raw: unknown, where: string, base: string): CampaignAgent {
  if (typeof raw === 'string') return { agent: raw };
  if (raw === null || typeof raw === 'boolean' || typeof raw === 'number') fail(where, `must be an agent (oracle, null, cmd:...) or a map with agent:${QUOTE_HINT}`);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) fail(where, 'must be an agent (oracle, cmd:...) or a map with agent:');
  const a = raw as Record<string, unknown>;
  unknownKeys(a, AGENT_KEYS, where);
  if (typeof a.agent !== 'string') fail(`${where}.agent`, 'is required: oracle, null, neg:<name> or cmd:<command>');
  const text = (k: string) => {
    if (a[k] === undefined) return undefined;
    if (typeof a[k] !== 'string') fail(`${where}.${k}`, 'must be text');
    return a[k] as string;
  };
  if (a.sandbox !== undefined && typeof a.sandbox !== 'boolean') fail(`${where}.sandbox`, 'must be true or false');
  if (a.tool_budget !== undefined && !(Number.isInteger(a.tool_budget) || a.tool_budget === 'all')) fail(`${where}.tool_budget`, "must be a whole number or 'all'");
  const paths = a.agent_files === undefined ? undefined : strings(a.agent_files, `${where}.agent_files`).map((p) => (isAbsolute(p) ? p : resolve(base, p)));
  return {
    agent: a.agent, name: text('name'), model: text('model'), interface: text('interface'), sandbox: a.sandbox as boolean | undefined,
    ...(a.tool_budget === undefined ? {} : { toolBudget: String(a.tool_budget) }),
    passEnv: a.pass_env === undefined ? undefined : strings(a.pass_env, `${where}.pass_env`), agentFiles: paths,
    netAllow: a.net_allow === undefined ? undefined : strings(a.net_allow, `${where}.net_allow`), limits: a.limits === undefined ? undefined : strings(a.limits, `${where}.limits`),
    ...(a.llm === undefined ? {} : { llm: llmFrom(a.llm, `${where}.llm`) }),
  };
}

function llmFrom(raw: unknown, where: string): LlmFlags {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) fail(where, `must be a map of ${LLM_KEYS.join(', ')}`);
  const l = raw as Record<string, unknown>;
  unknownKeys(l, LLM_KEYS, where);
  const text = (k: string) => {
    if (l[k] === undefined) return undefined;
    if (typeof l[k] !== 'string' || (l[k] as string).trim() === '') fail(`${where}.${k}`, 'must be text');
    return (l[k] as string).trim();
  };
  const price = (k: string) => {
    if (l[k] === undefined) return undefined;
    if (typeof l[k] !== 'number' || !Number.isFinite(l[k]) || (l[k] as number) < 0) fail(`${where}.${k}`, 'must be a number of 0 or more (USD per million tokens)');
    return l[k] as number;
  };
  const retries = l.max_retries;
  if (retries !== undefined && (!Number.isInteger(retries) || (retries as number) < 0)) fail(`${where}.max_retries`, 'must be a whole number of 0 or more');
  const api = text('api');
  return {
    ...(api === undefined ? {} : { api: parseLlmApi(api, `${where}.api`) }),
    baseUrl: text('base_url'), keyEnv: text('key_env'), maxSteps: l.max_steps === undefined ? undefined : positive(l.max_steps, `${where}.max_steps`),
    ...(retries === undefined ? {} : { maxRetries: retries as number }),
    priceIn: price('price_in'), priceOut: price('price_out'), priceCachedIn: price('price_cached_in'),
  };
}

/** A campaign file (YAML); relative paths in it are relative to the file. */
export function parseCampaignFile(file: string): CampaignSpec {
  const base = dirname(resolve(file));
  const raw = parse(readFileSync(file, 'utf8')) as unknown;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) fail(file, 'must be a map with name, tasks, seeds, reps and agents');
  const doc = raw as Record<string, unknown>;
  unknownKeys(doc, TOP_KEYS, file);
  if (typeof doc.name !== 'string') fail(`${file}: name`, 'is required: the folder under runs/ that holds the campaign');
  if (!Array.isArray(doc.agents)) fail(`${file}: agents`, 'must be a list');
  return checkSpec({
    name: doc.name,
    tasks: strings(doc.tasks, `${file}: tasks`),
    tasksDir: typeof doc.tasks_dir === 'string' ? resolve(base, doc.tasks_dir) : undefined,
    seeds: seedList(doc.seeds ?? [0], `${file}: seeds`),
    reps: doc.reps === undefined ? 1 : positive(doc.reps, `${file}: reps`),
    agents: (doc.agents as unknown[]).map((a, i) => agentFrom(a, `${file}: agents[${i}]`, base)),
    conditions: doc.conditions === undefined ? ['clean'] : strings(doc.conditions, `${file}: conditions`),
    timeout: doc.timeout === undefined ? undefined : positive(doc.timeout, `${file}: timeout`),
  }, file);
}

/** What `erp bench campaign` takes in flags instead of a file. */
export interface CampaignFlags {
  name?: string;
  tasks?: string[];
  tasksDir?: string;
  seeds?: number[];
  reps?: number;
  agents?: string[];
  agentNames?: string[];
  models?: string[];
  interfaces?: string[];
  conditions?: string[];
  timeout?: number;
  /** `--llm-*`: the endpoint and limits of every llm agent the flags name. */
  llm?: LlmFlags;
  /** `--tool-budget`: of every agent the flags name that works through erp mcp (llm agents, cmd: agents with --interface mcp). */
  toolBudget?: string;
}

/**
 * A campaign from flags. `--agent-name`, `--model` and `--interface` go, in the order given, with
 * the agents that take them (cmd: agents): the first with the first, and so on; a campaign whose
 * agents need more than that says so in a file.
 */
export function specFromFlags(f: CampaignFlags): CampaignSpec {
  if (!f.name) fail('--name', 'is required without a campaign file: the folder under runs/ that holds the campaign');
  const agents = f.agents?.length ? f.agents : ['oracle'];
  const takesName = (a: string) => a.startsWith('cmd:') || a.startsWith('llm');
  const named = agents.filter(takesName);
  let nth = 0;
  for (const [flag, list] of [['--agent-name', f.agentNames], ['--model', f.models], ['--interface', f.interfaces]] as const) {
    if (list?.length && list.length !== named.length) fail(flag, `given ${list.length} times for ${named.length} cmd: or llm agent(s); give it once for each, in order, or write a campaign file`);
  }
  return checkSpec({
    name: f.name,
    tasks: f.tasks ?? [],
    tasksDir: f.tasksDir,
    seeds: f.seeds ?? [0],
    reps: f.reps ?? 1,
    agents: agents.map((agent) => {
      if (!takesName(agent)) return { agent };
      const i = nth++;
      const throughMcp = agent.startsWith('llm') || f.interfaces?.[i] === 'mcp';
      return { agent, name: f.agentNames?.[i], model: f.models?.[i], interface: f.interfaces?.[i], ...(agent.startsWith('llm') && f.llm ? { llm: f.llm } : {}), ...(throughMcp && f.toolBudget !== undefined ? { toolBudget: f.toolBudget } : {}) };
    }),
    conditions: f.conditions ?? ['clean'],
    timeout: f.timeout,
  }, 'flags');
}
