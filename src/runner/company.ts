import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import seedrandom from 'seedrandom';
import { Api } from '../api/pipeline';
import { allRoutes } from '../api/routes';
import { packageRoot } from '../package-info';
import { createAppRegistry } from '../projections';
import { START_FILE, verifyStartFile, type StartRecord, type VerifiedBase } from '../grader/start-snapshot';
import { BUILD_STORAGE, ErpDb } from '../projections/erp-db';
import type { ReadModelRegistry } from '../projections/registry';
import { COMPANIES, type CompanyGenerator } from '../sim/companies';
import type { World } from '../sim/world';
import { codeVersion } from './code-version';
import { companyHealth, type HealthCheck } from './company-health';
import { settleToSingleFile } from './db-file';

export type Progress = (done: number, total: number, note: string) => void;

export function companyGenerator(company: string): CompanyGenerator {
  const generator = COMPANIES[company];
  if (!generator) throw new Error(`No company generator '${company}' (known: ${Object.keys(COMPANIES).join(', ')}).`);
  return generator;
}

/** Builds the company into `api`'s database with its generator, from the seed's named company streams. */
export function buildCompany(company: string, seed: number, api: Api, progress?: Progress): World {
  // One batch: nobody reads the file until the company is built.
  return api.batch(() => companyGenerator(company)({ api, seed, random: (stream) => seedrandom(`company:${company}:${seed}:${stream}`), progress }));
}

export interface OpenCompany {
  erp: ErpDb;
  api: Api;
  world: World;
  /** Whether the company came from the cache rather than its generator. */
  cached: boolean;
}

/**
 * Opens `file` holding the company's start state: copied from the cache, or built by its generator
 * (and then cached). The caller adds to it, closes it and settles it to one file.
 */
export function openCompany(company: string, seed: number, file: string, options: { progress?: Progress; fresh?: boolean } = {}): OpenCompany {
  companyGenerator(company);
  const cached = options.fresh ? undefined : companyFromCache(company, seed, file);
  const erp = ErpDb.open(file, createAppRegistry(), BUILD_STORAGE);
  const api = new Api(erp, allRoutes());
  try {
    const world = cached ?? buildCompany(company, seed, api, options.progress);
    if (!cached) saveCompany(company, seed, erp, world);
    return { erp, api, world, cached: cached !== undefined };
  } catch (err) {
    erp.close();
    throw err;
  }
}

/**
 * Companies are built once per seed and code version, then copied: every task on a company
 * starts from the same file, and a company's twelve months of history are not rebuilt per task.
 * BB_ERP_CACHE_DIR moves the cache (default .cache/companies under the package).
 */
function companyCacheDir(company: string, seed: number): string {
  const root = process.env.BB_ERP_CACHE_DIR ?? join(packageRoot(), '.cache', 'companies');
  const key = createHash('sha256').update(`${company}\n${seed}\n${codeVersion()}`).digest('hex').slice(0, 16);
  return join(root, company, `seed-${seed}-${key}`);
}

function companyFromCache(company: string, seed: number, target: string): World | undefined {
  const dir = companyCacheDir(company, seed);
  if (!existsSync(join(dir, 'company.db')) || !existsSync(join(dir, 'world.json'))) return undefined;
  copyFileSync(join(dir, 'company.db'), target);
  return JSON.parse(readFileSync(join(dir, 'world.json'), 'utf8')) as World;
}

function saveCompany(company: string, seed: number, erp: ErpDb, world: World): void {
  const dir = companyCacheDir(company, seed);
  mkdirSync(dir, { recursive: true });
  // The record of the database this replaces, if any, is of other bytes.
  rmSync(join(dir, START_FILE), { force: true });
  // Written beside, then renamed: a worker reading the cache never sees half a file.
  const tmp = join(dir, `company.db.${process.pid}.tmp`);
  erp.db.prepare('VACUUM INTO ?').run(tmp);
  writeFileSync(join(dir, `world.json.${process.pid}.tmp`), JSON.stringify(world));
  renameSync(tmp, join(dir, 'company.db'));
  renameSync(join(dir, `world.json.${process.pid}.tmp`), join(dir, 'world.json'));
  pruneOlderVersions(dir);
}

/**
 * The company as cached, verified: its cached database and the start record of it (start.json in
 * the cache, written here the first time, by a replay of the company's whole history). A scenario
 * built on the company begins with its events, so its own verification replays only the task's
 * events onto a copy of it (verifyScenarioStart). Undefined when the company is not in the cache.
 */
export function verifiedCompany(company: string, seed: number, registry: ReadModelRegistry): VerifiedBase | undefined {
  const dir = companyCacheDir(company, seed);
  const file = join(dir, 'company.db');
  if (!existsSync(file)) return undefined;
  const recordFile = join(dir, START_FILE);
  if (existsSync(recordFile)) return { file, record: JSON.parse(readFileSync(recordFile, 'utf8')) as StartRecord };
  const record = verifyStartFile(file, registry);
  const tmp = `${recordFile}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(record, null, 2) + '\n');
  renameSync(tmp, recordFile);
  return { file, record };
}

/** Drops the same company and seed built by other code versions: each is a whole database, and stale. */
function pruneOlderVersions(current: string): void {
  const parent = dirname(current);
  const prefix = basename(current).replace(/-[0-9a-f]{16}$/, '-');
  for (const entry of readdirSync(parent)) {
    if (entry.startsWith(prefix) && /^[0-9a-f]{16}$/.test(entry.slice(prefix.length)) && join(parent, entry) !== current) {
      rmSync(join(parent, entry), { recursive: true, force: true });
    }
  }
}

/** company.json: written last, so a company folder without it was never finished. */
export interface CompanyManifest {
  company: string;
  seed: number;
  code_version: string;
  /** The business date scenario.db ends on. */
  business_date: string;
  events: number;
  /** What the company must be like when its history ends (company-health.ts), as generated. */
  health: HealthCheck[];
  generated_wall: string;
}

export interface CompanyScenario {
  dir: string;
  cached: boolean;
  manifest: CompanyManifest;
}

/**
 * `erp scenario gen COMPANY` (seed 000 environment §10): a company alone, before any task plants
 * anything, as scenario.db (its events are the whole history) and world.json. Kept when company.json
 * names the same seed and code version, unless `force`.
 */
export function generateCompany(company: string, options: { seed: number; out?: string; force?: boolean; log?: (line: string) => void; progress?: Progress }): CompanyScenario {
  companyGenerator(company);
  const log = options.log ?? (() => undefined);
  const dir = resolve(options.out ?? join('scenarios', company, `seed-${options.seed}`));
  const manifestFile = join(dir, 'company.json');
  const prior = existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as CompanyManifest) : undefined;
  if (!options.force && prior && prior.company === company && prior.seed === options.seed && prior.code_version === codeVersion() && existsSync(join(dir, 'scenario.db'))) {
    log(`${company} seed ${options.seed}: using the generated company in ${dir}`);
    return { dir, cached: true, manifest: prior };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'scenario.db');
  const opened = openCompany(company, options.seed, file, { progress: options.progress, fresh: options.force });
  let manifest: CompanyManifest;
  try {
    if (opened.cached) log(`${company} seed ${options.seed}: copied from the company cache`);
    writeFileSync(join(dir, 'world.json'), JSON.stringify(opened.world, null, 2) + '\n');
    const health = companyHealth(opened.api);
    const failing = health.filter((h) => !h.ok);
    log(`${company} seed ${options.seed}: ${failing.length === 0 ? `all ${health.length} health checks hold` : `${failing.length} of ${health.length} health checks fail`}`);
    for (const h of failing) log(`  ${h.name}: ${h.detail}`);
    manifest = { company, seed: options.seed, code_version: codeVersion(), business_date: opened.api.today(), events: opened.erp.store.lastSeq(), health, generated_wall: new Date().toISOString() };
  } finally {
    opened.erp.close();
    settleToSingleFile(file);
  }
  writeFileSync(manifestFile, JSON.stringify(manifest, null, 2) + '\n');
  return { dir, cached: false, manifest };
}
