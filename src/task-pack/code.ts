import type { ErpClient } from '../client/http-client';
import type { SimClient } from '../sim/simulator';
import type { World } from '../sim/world';
import type { TaskSpec } from './schema';

/**
 * The TypeScript half of a task pack: tasks/<slug>/index.ts default-exports a TaskCode.
 * It may import types from src/ but nothing at run time: everything it needs comes in its context,
 * so one pack runs the same under ts-jest, from dist/, and from a folder outside the package.
 */
export interface TaskCode {
  /** Builds the task's start state on top of the company, through the API only. */
  generate(ctx: GenerateContext): Truth;
  /** The reference policy: plays every turn through the HTTP API with the agent's token. */
  oracle: AgentPolicy;
  /** Scripted plausible mistakes, by name without the `neg:` prefix. */
  negatives: Record<string, AgentPolicy>;
  /**
   * Other valid ways of doing the work (another order, a reversal, another layout of a text), by
   * name without the `pos:` prefix; task.yaml's positive_controls says what each varies. Each must pass.
   */
  positives?: Record<string, AgentPolicy>;
  /** The family's strategy matrix (seed 004), for packs that declare one: `erp bench strategies`. */
  matrix?: StrategyMatrix;
}

/**
 * Who should pass a task family and who should not (seed 004's validation): the oracle and other
 * valid solutions pass; the failing strategies (negative controls) fail; a blind strategy passes
 * only as often as chance allows.
 */
export interface StrategyMatrix {
  /** The family's short name, as `--family` takes it. */
  family: string;
  /** Other valid solutions (another order, equivalent calls, extra reads and notes): each must pass. */
  alternatives: Record<string, AgentPolicy>;
  /**
   * The failing strategies of seed 004, by a label the families share (`hold everything`, `pay
   * everything`, …) → the name in `negatives` that plays it here. Each must fail on every seed.
   */
  failing: Record<string, string>;
  /** Strategies that guard a grader bug found while building the family, label → name in `negatives`: each must fail. */
  regressions: Record<string, string>;
  /** A strategy acting on queue position alone, and the chance it passes a scenario given its truth. */
  blind: { policy: AgentPolicy; chance(truth: Truth): number };
}

export interface GenerateContext {
  seed: number;
  spec: TaskSpec;
  /** world.json as the company generator left it; add scheduled actions and actor profiles here. */
  world: World;
  /** A seeded random stream; streams with different names are independent. */
  random(stream: string): () => number;
  /** Requests as the system actor (generators only; agents never have it). */
  system: SimClient;
  /** Requests as a user of world.users, with the token this build issued them. */
  as(userId: string): SimClient;
  /**
   * Issues a random token for a user and returns its secret; a counterparty (the default) joins
   * world.users, so every attempt issues them a token of its own.
   */
  issueToken(userId: string, options?: { counterparty?: boolean }): string;
  /** Moves the business date forward, running the simulator for each day. */
  advanceTo(date: string): void;
  today(): string;
}

/** truth.json: the planted exceptions and the clauses each one exercises. Never shown to the agent. */
export interface Truth {
  planted: { id: string; clauses: string[]; description?: string; [detail: string]: unknown }[];
}

export interface TurnInfo {
  /** 1-based. */
  index: number;
  date: string;
  from: string;
  request: string;
  /** The prompt an agent process would get: the preamble and the request. */
  prompt: string;
}

export interface PolicyContext {
  /** The HTTP API with the agent's token: the only way a policy may act. */
  client: ErpClient;
  erpUrl: string;
  /** The agent's token, as ERP_TOKEN gives it to an agent process: for a policy that works through the `erp` command or `erp mcp`. */
  erpToken: string;
  turn: TurnInfo;
  /** The persistent workspace folder (handbook/ is in it); notes left here survive to later turns. */
  workspace: string;
  log(line: string): void;
}

export type AgentPolicy = (ctx: PolicyContext) => Promise<void>;
