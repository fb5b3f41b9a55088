import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { sha256Hex } from '../api/actors';
import { advanceTo } from '../api/control-app';
import type { Api } from '../api/pipeline';
import { ajv } from '../events/json-schema';
import { validatorFor } from '../events/validators';
import { COMPANIES, seededSecret } from '../sim/companies';
import { clientFor, createSimulator, type SimClient } from '../sim/simulator';
import type { World } from '../sim/world';
import type { GenerateContext, TaskCode, Truth } from '../task-pack/code';
import type { TaskPack } from '../task-pack/load';
import { TruthSchema } from '../task-pack/schema';
import { openCompany, type Progress } from './company';
import { settleToSingleFile } from './db-file';


function systemClient(api: Api): SimClient {
  const call = (method: string, path: string, body?: unknown, query?: Record<string, unknown>) => api.call({ method, path, body, query, asSystem: true });
  return { get: (path, query) => call('GET', path, undefined, query), post: (path, body) => call('POST', path, body ?? {}) };
}

/** Checks what the generator produced against what the task needs of it. */
function verify(pack: TaskPack, api: Api, world: World, truth: Truth): void {
  const { spec } = pack;
  const validateTruth = validatorFor('payload', TruthSchema);
  if (!validateTruth(truth)) throw new Error(`The generator's truth is not { planted: [{ id, clauses }] }: ${ajv.errorsText(validateTruth.errors)}.`);
  for (const p of truth.planted) {
    const unknown = p.clauses.filter((c) => !pack.policies.clauses.has(c));
    if (unknown.length) throw new Error(`truth: planted ${p.id} cites ${unknown.join(', ')}, which policies.yaml does not define.`);
  }
  if (!api.read.org.user(spec.agent_user)) throw new Error(`The scenario has no user ${spec.agent_user} (task.yaml agent_user).`);
  if (!world.tokens[spec.agent_user]) throw new Error(`world.json has no token for the agent user ${spec.agent_user}: issue one in the generator.`);
  spec.turns.forEach((t, i) => {
    if (!api.read.org.user(t.from)) throw new Error(`turns[${i}].from: the scenario has no user ${t.from}.`);
  });
  if (spec.turns[0]!.date < api.today()) throw new Error(`The first turn (${spec.turns[0]!.date}) is before the scenario's business date ${api.today()}.`);
}

/**
 * Builds scenario.db in `dir`: the company from its generator, then the task's planted state, all
 * through the API. Randomness comes only from streams seeded by the company or task and the seed.
 */
export function buildStartState(pack: TaskPack, code: TaskCode, seed: number, dir: string, progress?: Progress): { world: World; truth: Truth; startDate: string } {
  if (!COMPANIES[pack.spec.company]) throw new Error(`task.yaml company: no company generator '${pack.spec.company}' (known: ${Object.keys(COMPANIES).join(', ')}).`);
  const { erp, api, world } = openCompany(pack.spec.company, seed, join(dir, 'scenario.db'), { progress });
  try {
    const taskRandom = (stream: string) => seedrandom(`task:${pack.slug}:${seed}:${stream}`);
    const tokenStream = taskRandom('tokens');
    const ctx: GenerateContext = {
      seed,
      spec: pack.spec,
      world,
      random: taskRandom,
      system: systemClient(api),
      as: (userId) => clientFor(api, world, userId),
      issueToken(userId, options = {}) {
        const secret = seededSecret(tokenStream);
        const res = ctx.system.post('/api-tokens', { user: userId, token_sha256: sha256Hex(secret), label: 'scenario' });
        if (res.status !== 201) throw new Error(`Issuing a token for ${userId} failed: ${JSON.stringify(res.body)}`);
        if (options.counterparty ?? true) world.tokens[userId] = secret;
        return secret;
      },
      advanceTo: (date) => void advanceTo(api, date, createSimulator(world)),
      today: () => api.today(),
    };
    const truth = api.batch(() => code.generate(ctx));
    verify(pack, api, world, truth);
    return { world, truth, startDate: api.today() };
  } finally {
    erp.close();
    settleToSingleFile(join(dir, 'scenario.db'));
  }
}
