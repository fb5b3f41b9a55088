import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { Api } from '../../api/pipeline';
import { allRoutes } from '../../api/routes';
import { referenceDigest } from '../../grader/tamper';
import { packageRoot, packageVersion } from '../../package-info';
import { createAppRegistry } from '../../projections';
import { ErpDb } from '../../projections/erp-db';
import { promptPeople } from '../../runner/attempt-play';
import { BUNDLES, bundlePath } from '../../runner/client-bundle';
import { resolveFaults, type FaultCondition } from '../../runner/fault-condition';
import { turnPrompt } from '../../runner/prompt';
import { copyModule, runtimeModules } from '../../runner/sample';
import { newSecret } from '../../sim/credentials';
import { generateScenario, type Scenario } from '../../runner/scenario';
import { loadPack, type TaskPack } from '../../task-pack/load';
import { buildOracleProgram, buildServiceProgram, type BuiltProgram } from './bundles';
import { HARBOR, type OracleTurnFile, type ServiceConfig } from './layout';
import { datasetConfig, stepName, taskConfig } from './task-config';
import { composeFile, DEFAULT_BASE_IMAGE, erpDockerfile, MAIN_DOCKERIGNORE, mainDockerfile, PROGRAM_DIR, SOLVE_SH, TEST_SH, verifierDockerfile } from './task-files';
import { toToml } from './toml';
import { validateTaskConfig } from './schema';

/**
 * `erp export harbor`: one Harbor task per task and seed, in a dataset folder with its
 * dataset.toml. Each task holds three images' build contexts that share nothing they must not:
 * `main` (the agent: the erp client, the handbook, its token), the ERP service (the runner's own
 * attempt code over the scenario without its reference) and the verifier (the grader, the
 * scenario with its reference); and per turn a step with the prompt and the oracle's solution.
 */

export interface HarborExportOptions {
  task: string;
  tasksDir?: string;
  seeds: readonly number[];
  /** A fault profile of the task, or a SPEC: the ERP service injects it, the condition names the tasks. */
  faults?: string;
  out: string;
  /** The images' base (Node 20 with bash): the default a cloud backend pulls, or a local image. */
  baseImage?: string;
  /** Where scenarios are found or generated (default scenarios/<task>/seed-<N>). */
  scenariosDir?: string;
  /** The org of the tasks' and dataset's names (org/name). */
  org?: string;
  /** Replace task folders that exist already. */
  force?: boolean;
  log?: (line: string) => void;
}

export interface ExportedTask {
  name: string;
  dir: string;
  task: string;
  seed: number;
  steps: string[];
  oracleFinalHash: string;
}

export interface HarborExport {
  out: string;
  dataset: string;
  tasks: ExportedTask[];
}

const ORG = 'bb-erp';
const NAME_PART = /^[a-zA-Z0-9][a-zA-Z0-9._-]*$/;

/** A hard link when the file system allows it (a scenario database is tens of MB per task), a copy otherwise. */
function place(src: string, dst: string): void {
  mkdirSync(dirname(dst), { recursive: true });
  if (statSync(src).isDirectory()) {
    for (const name of readdirSync(src)) place(join(src, name), join(dst, name));
    return;
  }
  try {
    linkSync(src, dst);
  } catch {
    copyFileSync(src, dst);
  }
}

function write(file: string, text: string | Uint8Array, mode = 0o644): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, mode);
}

/** The pack as a container sees it: its folders where that container keeps it. */
function packAt(pack: TaskPack, dir: string): TaskPack {
  return { ...pack, dir, taskFile: join(dir, 'task.yaml'), policiesFile: join(dir, 'policies.yaml'), handbookDir: join(dir, 'handbook'), baseDirs: [] };
}

/** A package.json naming bb-erp beside a program: packageRoot() and packageVersion() find it. */
function homePackageJson(): string {
  return JSON.stringify({ name: 'bb-erp', version: packageVersion(), private: true }, null, 2) + '\n';
}

/**
 * The packages a bundle cannot hold: better-sqlite3's compiled addon (trimmed as the public sample
 * trims it) and ajv, whose compiled validators require its runtime modules by name.
 */
const RUNTIME_PACKAGES = ['better-sqlite3', 'ajv', 'ajv-formats'];

function placeRuntime(home: string): void {
  const root = packageRoot();
  for (const dir of runtimeModules(root, RUNTIME_PACKAGES)) copyModule(root, dir, home);
}

/** The served API's generated response schemas and validators, where the bundle looks for them. */
function placePrecompiled(home: string): void {
  const built = join(packageRoot(), 'dist', 'precompiled');
  if (existsSync(built)) place(built, join(home, 'precompiled'));
}

/** The prompts of the turns, as the runner writes them (the people as the scenario's database has them). */
function prompts(pack: TaskPack, scenarioDb: string): string[] {
  const erp = ErpDb.open(scenarioDb, createAppRegistry(), { readonly: true });
  try {
    const api = new Api(erp, allRoutes());
    return pack.spec.turns.map((turn) => turnPrompt(promptPeople(api, pack.spec.agent_user, turn.from), turn.date, turn.request));
  } finally {
    erp.close();
  }
}

/** Harbor's content hash of a task folder (harbor.publisher.packager): sorted files, each `path\0sha256\n`. */
export function taskContentHash(taskDir: string): string {
  const files: string[] = [];
  for (const single of ['task.toml', 'instruction.md', 'README.md', 'trajectory.json']) if (existsSync(join(taskDir, single))) files.push(single);
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(taskDir, rel), { withFileTypes: true })) {
      const path = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) files.push(path);
    }
  };
  for (const dir of ['environment', 'tests', 'solution', 'steps']) if (existsSync(join(taskDir, dir))) walk(dir);
  const outer = createHash('sha256');
  for (const rel of files.sort()) outer.update(`${rel}\0${createHash('sha256').update(readFileSync(join(taskDir, rel))).digest('hex')}\n`);
  return outer.digest('hex');
}

interface Programs {
  service: BuiltProgram;
  verifier: BuiltProgram;
  oracle: BuiltProgram;
}

function writeTask(o: { dir: string; name: string; pack: TaskPack; scenario: Scenario; seed: number; faults?: FaultCondition; baseImage: string; programs: Programs; label: string }): ExportedTask {
  const { dir, pack, scenario } = o;
  const scenarioDb = join(scenario.dir, 'scenario.db');
  const agentToken = newSecret();
  const turnPrompts = prompts(pack, scenarioDb);

  // main: the erp client (and erp mcp beside it), the handbook, the agent's token.
  const env = join(dir, 'environment');
  write(join(env, 'Dockerfile'), mainDockerfile(o.baseImage, agentToken));
  write(join(env, '.dockerignore'), MAIN_DOCKERIGNORE);
  write(join(env, 'docker-compose.yaml'), composeFile(o.baseImage));
  for (const name of ['client', 'mcp'] as const) place(bundlePath(name), join(env, 'main', 'erp', basename(BUNDLES[name].file)));
  write(join(env, 'main', 'erp', 'package.json'), homePackageJson());
  place(join(scenario.dir, 'handbook'), join(env, 'main', 'workspace', 'handbook'));

  // The ERP service: the scenario without its reference, the attempt code, the agent's token.
  const erp = join(env, 'erp');
  write(join(erp, 'Dockerfile'), erpDockerfile(o.baseImage));
  write(join(erp, 'package.json'), homePackageJson());
  write(join(erp, PROGRAM_DIR, 'erp-service.cjs'), o.programs.service.code);
  placeRuntime(erp);
  placePrecompiled(erp);
  for (const file of ['scenario.db', 'world.json']) place(join(scenario.dir, file), join(erp, 'scenario', file));
  place(join(scenario.dir, 'handbook'), join(erp, 'scenario', 'handbook'));
  const service: ServiceConfig = {
    version: 1, pack: packAt(pack, join(HARBOR.erpHome, 'pack')), pack_hash: scenario.manifest.pack_hash, seed: o.seed, label: o.label,
    agent_token: agentToken, reference_digest: referenceDigest(join(scenario.dir, 'reference')), faults: o.faults ?? null,
  };
  write(join(erp, 'service.json'), JSON.stringify(service, null, 2) + '\n', 0o600);

  // The verifier: the grader, the scenario and its reference (the oracle's own run left out).
  const tests = join(dir, 'tests');
  write(join(tests, 'Dockerfile'), verifierDockerfile(o.baseImage));
  write(join(tests, 'test.sh'), TEST_SH, 0o755);
  write(join(tests, 'package.json'), homePackageJson());
  write(join(tests, PROGRAM_DIR, 'verifier.cjs'), o.programs.verifier.code);
  placeRuntime(tests);
  for (const file of ['scenario.db', 'start.json', 'scenario.json', 'world.json']) place(join(scenario.dir, file), join(tests, 'scenario', file));
  const reference = join(scenario.dir, 'reference');
  for (const entry of readdirSync(reference, { withFileTypes: true })) if (entry.isFile()) place(join(reference, entry.name), join(tests, 'scenario', 'reference', entry.name));
  write(join(tests, 'pack.json'), JSON.stringify(packAt(pack, join(HARBOR.tests, 'pack')), null, 2) + '\n');

  // One step per turn: the prompt, and the oracle's play of the turn.
  const steps: string[] = [];
  pack.spec.turns.forEach((turn, k) => {
    const step = join(dir, 'steps', stepName(k + 1));
    steps.push(stepName(k + 1));
    write(join(step, 'instruction.md'), turnPrompts[k]!);
    const turnFile: OracleTurnFile = { index: k + 1, date: turn.date, from: turn.from, request: turn.request, prompt: turnPrompts[k]!, budget_s: turn.budget };
    write(join(step, 'solution', 'turn.json'), JSON.stringify(turnFile, null, 2) + '\n');
    write(join(step, 'solution', 'oracle.cjs'), o.programs.oracle.code);
    write(join(step, 'solution', 'solve.sh'), SOLVE_SH, 0o755);
  });

  const config = taskConfig({
    name: o.name, version: packageVersion(), spec: pack.spec, seed: o.seed, condition: o.faults?.condition ?? 'clean',
    packHash: scenario.manifest.pack_hash, oracleFinalHash: scenario.manifest.oracle.final_hash,
  });
  validateTaskConfig(config);
  write(join(dir, 'task.toml'), toToml(config));
  return { name: o.name, dir, task: pack.slug, seed: o.seed, steps, oracleFinalHash: scenario.manifest.oracle.final_hash };
}

/** The tasks of a dataset folder (each subfolder with a task.toml), by the name their task.toml gives. */
function datasetTasks(out: string): { name: string; digest: string }[] {
  const tasks: { name: string; digest: string }[] = [];
  for (const entry of readdirSync(out, { withFileTypes: true })) {
    const toml = join(out, entry.name, 'task.toml');
    if (!entry.isDirectory() || !existsSync(toml)) continue;
    const name = /^name = "([^"]+)"$/m.exec(readFileSync(toml, 'utf8'))?.[1];
    if (name) tasks.push({ name, digest: taskContentHash(join(out, entry.name)) });
  }
  return tasks.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export async function exportHarbor(o: HarborExportOptions): Promise<HarborExport> {
  const log = o.log ?? (() => undefined);
  const org = o.org ?? ORG;
  if (!NAME_PART.test(org)) throw new Error(`--org must be letters, digits, dots, dashes and underscores, not '${org}'.`);
  if (o.seeds.length === 0) throw new Error('--seeds names no seed.');
  const pack = loadPack(o.task, o.tasksDir);
  const faults = o.faults ? resolveFaults(pack, o.faults) : undefined;
  const out = resolve(o.out);
  const suffix = faults ? `-${faults.condition}` : '';
  const folders = o.seeds.map((seed) => `${pack.slug}-seed-${seed}${suffix}`);
  for (const folder of folders) {
    if (!NAME_PART.test(folder)) throw new Error(`The task name ${folder} is not a Harbor name part.`);
    if (existsSync(join(out, folder)) && !o.force) throw new Error(`${join(out, folder)} exists: give --force to replace it.`);
  }
  const baseImage = o.baseImage ?? DEFAULT_BASE_IMAGE;
  log(`${pack.slug}: building the ERP service, verifier and oracle programs`);
  const programs: Programs = {
    service: await buildServiceProgram('erp-service'),
    verifier: await buildServiceProgram('verifier'),
    oracle: await buildOracleProgram(pack),
  };
  const tasks: ExportedTask[] = [];
  for (const [k, seed] of o.seeds.entries()) {
    const scenario = await generateScenario(pack, { seed, out: o.scenariosDir ? join(o.scenariosDir, pack.slug, `seed-${seed}`) : undefined, log });
    const dir = join(out, folders[k]!);
    rmSync(dir, { recursive: true, force: true });
    const task = writeTask({ dir, name: `${org}/${folders[k]}`, pack, scenario, seed, faults, baseImage, programs, label: `harbor-${folders[k]}` });
    log(`${task.name}: ${relative(process.cwd(), dir) || dir} (${task.steps.length} steps)`);
    tasks.push(task);
  }
  const dataset = join(out, 'dataset.toml');
  write(dataset, toToml(datasetConfig(`${org}/${basename(out).replace(/[^a-zA-Z0-9._-]+/g, '-').replace(/^[^a-zA-Z0-9]+/, '') || 'tasks'}`, 'bb-erp tasks exported as Harbor multi-step tasks (erp export harbor).', datasetTasks(out))));
  return { out, dataset, tasks };
}

