import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AttemptResult } from '../grader/result';
import { loadPack } from '../task-pack/load';
import { loadPackCode } from '../task-pack/module-loader';
import { agentText, parseAgent, resolveIdentity } from './agent-spec';
import { cellOf, identityFields, parseInterface, type AgentIdentity } from './agent-identity';
import { parseToolBudget } from '../client/mcp/tool-budget';
import { runAttempt } from './attempt';
import type { Progress } from './company';
import { generateScenario } from './scenario';
import { resolveFaults } from './fault-condition';
import { conditionWithIsolation, requireSandbox } from './agent-launch';
import { checkPassEnv } from './launcher';
import { llmSettings, type LlmFlags } from './llm-agent';
import { checkDestination } from './sandbox/egress-proxy';
import { limitsFrom } from './sandbox/limits';

export interface BenchRunOptions {
  task: string;
  tasksDir?: string;
  seed?: number;
  /** oracle, null, neg:<name>, cmd:<command> or llm[:<model>]. */
  agent?: string;
  /** Who the agent is, as results and reports name it (`--agent-name`, `--model`), and the interface it uses (`--interface`). */
  agentName?: string;
  model?: string;
  interface?: string;
  /** `--tool-budget`: the most tools an agent working through erp mcp is offered, a whole number or `all` (default 64). */
  toolBudget?: string;
  /** Overrides every turn's budget, in seconds. */
  timeout?: number;
  reps?: number;
  label?: string;
  runsDir?: string;
  /** The scenario folder (default scenarios/<task>/seed-<N>); generated when missing or stale. */
  scenarioDir?: string;
  /** A fault profile of the task, or a SPEC (seed 000 §7.1). */
  faults?: string;
  log?: (line: string) => void;
  /** Told how far the company's build has come, when the scenario needs one and it is not cached. */
  progress?: Progress;
  /** false: run a cmd: agent without the sandbox (`--no-sandbox`), recorded as unsandboxed. */
  sandbox?: boolean;
  /** Runner variables a cmd: agent also gets (`--pass-env`). */
  passEnv?: string[];
  /** The harness's own files, visible read-only in the sandbox (`--agent-files`). */
  agentFiles?: string[];
  /** `--limit KEY=VALUE` flags over the sandbox's default limits. */
  limits?: string[];
  /** `host:port`s the sandboxed agent may reach besides the agent port (`--net-allow`). */
  netAllow?: string[];
  /** The reference LLM agent's endpoint (default OPENAI_BASE_URL), the variable holding its key (default OPENAI_API_KEY), its step limit and prices. */
  llm?: LlmFlags;
  /** Aborted by Ctrl-C or SIGTERM: the running attempt ends incomplete and no more start. */
  signal?: AbortSignal;
  /** Called once the scenario is ready, just before the first attempt (the command arms its signal handlers). */
  onAttemptsStart?: () => void;
}

export interface BenchRunResult {
  label: string;
  labelDir: string;
  attempts: { dir: string; result: AttemptResult }[];
}

/** A label holds one cell (agent and condition): its condition.json says which. */
function claimLabel(labelDir: string, label: string, entry: { condition: string; agent: string; cell: string; faults: { spec: string; profile: string | null } | null } & AgentIdentity): void {
  const file = join(labelDir, 'condition.json');
  if (existsSync(file)) {
    const prior = JSON.parse(readFileSync(file, 'utf8')) as { cell: string };
    if (prior.cell !== entry.cell) throw new Error(`Label ${label} holds ${prior.cell} attempts; give ${entry.cell} its own --label.`);
    return;
  }
  mkdirSync(labelDir, { recursive: true });
  writeFileSync(file, JSON.stringify(entry, null, 2) + '\n');
}

function nextRep(seedDir: string): number {
  const taken = existsSync(seedDir) ? readdirSync(seedDir).map((n) => /^rep-(\d+)$/.exec(n)?.[1]).filter(Boolean).map(Number) : [];
  return taken.length ? Math.max(...taken) + 1 : 1;
}

/** `erp bench run`: the scenario (from cache or generated), then `reps` attempts under a label. */
export async function benchRun(o: BenchRunOptions): Promise<BenchRunResult> {
  const log = o.log ?? (() => undefined);
  const pack = loadPack(o.task, o.tasksDir);
  const agent = parseAgent(o.agent ?? 'oracle');
  const identity = identityFields(resolveIdentity(agent, {
    agentName: o.agentName, model: o.model, interface: o.interface === undefined ? undefined : parseInterface(o.interface),
    toolBudget: o.toolBudget === undefined ? undefined : parseToolBudget(o.toolBudget, '--tool-budget'), llmApi: o.llm?.api,
  }));
  const runsProcess = agent.kind === 'command' || agent.kind === 'llm';
  const unsandboxed = runsProcess && o.sandbox === false;
  // Before anything is built: a cmd: or llm agent without bubblewrap is refused in one sentence.
  if (runsProcess) requireSandbox({ sandbox: !unsandboxed });
  const llm = agent.kind === 'llm' ? llmSettings(o.llm ?? {}) : undefined;
  checkPassEnv(o.passEnv ?? []);
  const limits = limitsFrom(o.limits);
  const netAllow = (o.netAllow ?? []).map(checkDestination);
  const seed = o.seed ?? 0;
  const code = agent.kind === 'oracle' || agent.kind === 'negative' ? loadPackCode(pack) : undefined;
  const scenario = await generateScenario(pack, { seed, out: o.scenarioDir, log, progress: o.progress });
  const faults = o.faults ? resolveFaults(pack, o.faults) : undefined;
  const condition = conditionWithIsolation(faults?.condition ?? 'clean', unsandboxed);
  const cell = cellOf(identity, condition);
  const label = o.label ?? cell;
  const labelDir = resolve(o.runsDir ?? 'runs', label);
  claimLabel(labelDir, label, { condition, agent: agentText(agent), ...identity, cell, faults: faults ? { spec: faults.spec, profile: faults.profile } : null });
  const seedDir = join(labelDir, pack.slug, `seed-${seed}`);
  const attempts: BenchRunResult['attempts'] = [];
  o.onAttemptsStart?.();
  for (let i = 0; i < (o.reps ?? 1) && !o.signal?.aborted; i++) {
    const rep = nextRep(seedDir);
    const dir = join(seedDir, `rep-${rep}`);
    log(`${pack.slug} seed ${seed} rep ${rep} (${cell}): ${dir}`);
    const out = await runAttempt({ pack, code, packHash: scenario.manifest.pack_hash, scenarioDir: scenario.dir, seed, agent, identity, attemptDir: dir, label, rep, faults, timeoutSeconds: o.timeout, log, sandbox: !unsandboxed, passEnv: o.passEnv, agentFiles: o.agentFiles, signal: o.signal, llm, limits, netAllow });
    attempts.push({ dir, result: out.result! });
  }
  return { label, labelDir, attempts };
}
