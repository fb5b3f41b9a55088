import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { advanceTo } from '../api/control-app';
import type { Api } from '../api/pipeline';
import { payloadAjv } from '../events/json-schema';
import { validatorFor } from '../events/validators';
import { COMPANIES } from '../sim/companies';
import { issueTokens } from '../sim/credentials';
import { clientFor, createSimulator, type SimClient } from '../sim/simulator';
import type { World } from '../sim/world';
import type { GenerateContext, TaskCode, Truth } from '../task-pack/code';
import type { TaskPack } from '../task-pack/load';
import { clauseRefProblem } from '../task-pack/policies';
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
  if (!validateTruth(truth)) throw new Error(`The generator's truth is not { planted: [{ id, clauses }] }: ${payloadAjv().errorsText(validateTruth.errors)}.`);
  for (const p of truth.planted) {
    const unknown = p.clauses.filter((c) => clauseRefProblem(pack.policies, c) !== undefined);
    if (unknown.length) throw new Error(`truth: planted ${p.id} cites ${unknown.join(', ')}, which policies.yaml does not define.`);
  }
  if (!api.read.org.user(spec.agent_user)) throw new Error(`The scenario has no user ${spec.agent_user} (task.yaml agent_user).`);
  if (!world.users.includes(spec.agent_user)) throw new Error(`world.json does not list the agent user ${spec.agent_user}: issue the user a token in the generator.`);
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
    // The company's own secrets did not outlive its build (nor the cache): this build issues its own.
    const credentials = issueTokens(api, world.users, 'scenario').secrets;
    const ctx: GenerateContext = {
      seed,
      spec: pack.spec,
      world,
      random: taskRandom,
      system: systemClient(api),
      as: (userId) => clientFor(api, credentials, userId),
      issueToken(userId, options = {}) {
        const secret = issueTokens(api, [userId], 'scenario').secrets[userId]!;
        if (options.counterparty ?? true) {
          credentials[userId] = secret;
          if (!world.users.includes(userId)) world.users = [...world.users, userId].sort();
        }
        return secret;
      },
      advanceTo: (date) => void advanceTo(api, date, createSimulator(world, credentials)),
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
