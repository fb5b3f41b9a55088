import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { packageRoot } from '../package-info';
import { parseFaultSpec } from '../api/faults';
import { loadPolicies, type Policies } from './policies';
import { CHECK_SCHEMAS, CheckHead, MUTATION_SCHEMAS, MutationHead, NegativeEntry, NegativeShorthand, TaskSpecSchema, type CheckSpec, type MutationSpec, type NegativeControl, type PositiveControl, type TaskSpec } from './schema';
import { PackError, YamlFile } from './yaml-file';

/** A task pack as read from tasks/<slug>/ (seed 000 §7, §11): its spec, its policies, its folder. */
export interface TaskPack {
  slug: string;
  dir: string;
  taskFile: string;
  policiesFile: string;
  handbookDir: string;
  spec: TaskSpec;
  policies: Policies;
  /** The folders of the tasks this one is a variant of, nearest first (empty for a task that varies none). */
  baseDirs: string[];
}

/** The folder real task packs live in: tasks/ beside package.json. */
export function defaultTasksDir(): string {
  return join(packageRoot(), 'tasks');
}

/** A task named by slug (under tasksDir) or by the path of its folder. */
export function resolvePackDir(task: string, tasksDir?: string): string {
  if ((task.includes('/') || task.startsWith('.')) && existsSync(join(task, 'task.yaml'))) return resolve(task);
  const dir = resolve(tasksDir ?? defaultTasksDir(), task);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new PackError(dir, '', `no task pack '${task}' here (give --tasks-dir or the pack's folder)`);
  return dir;
}

export function loadPack(task: string, tasksDir?: string): TaskPack {
  const dir = resolvePackDir(task, tasksDir);
  const taskFile = join(dir, 'task.yaml');
  const policiesFile = join(dir, 'policies.yaml');
  const chain = [dir];
  const spec = specAt(dir, chain);
  return { slug: spec.id, dir, taskFile, policiesFile, handbookDir: join(dir, 'handbook'), spec, policies: loadPolicies(policiesFile), baseDirs: chain.slice(1) };
}

/**
 * The spec in `dir`'s task.yaml, with everything it inherits when it is a variant of another task.
 * `chain` holds the folders read so far; the folders of the tasks it varies are added to it, nearest first.
 */
function specAt(dir: string, chain: string[]): TaskSpec {
  const yaml = YamlFile.read(join(dir, 'task.yaml'));
  yaml.check(TaskSpecSchema, yaml.data);
  const data = yaml.data as TaskSpec;
  if (data.id !== basename(dir)) throw yaml.error(['id'], `is '${data.id}' but the pack's folder is named '${basename(dir)}'`);
  let base: TaskSpec | undefined;
  if (data.variant_of) {
    const baseDir = join(dirname(dir), data.variant_of);
    if (chain.includes(baseDir)) throw yaml.error(['variant_of'], `the variant_of chain loops back to '${data.variant_of}'`);
    if (!existsSync(join(baseDir, 'task.yaml'))) throw yaml.error(['variant_of'], `no task '${data.variant_of}' beside this one`);
    chain.push(baseDir);
    base = specAt(baseDir, chain);
  }
  return readSpec(yaml, base);
}

type RawNegative = string[] | { breaks: string[]; fails: string[]; refused?: string[]; regression?: string };

/** A negative control in one shape: the bare list of checks is shorthand for one that declares no broken clause. */
function negativeOf(raw: RawNegative): NegativeControl {
  if (Array.isArray(raw)) return { breaks: [], fails: raw, refused: [], regression: null };
  return { breaks: raw.breaks, fails: raw.fails, refused: raw.refused ?? [], regression: raw.regression ?? null };
}

const negativesOf = (raw: Record<string, RawNegative> | undefined) => Object.fromEntries(Object.entries(raw ?? {}).map(([name, n]) => [name, negativeOf(n)]));

/**
 * A variant (`variant_of`) grades what its base grades and more: it inherits the base's
 * projections, checks, negative controls and fault profiles, and its own come after them (a check
 * or projection of the same name replaces the base's). Turns, dates and the agent stay its own.
 */
function readSpec(yaml: YamlFile, base?: TaskSpec): TaskSpec {
  const raw = yaml.data as TaskSpec;
  const checkShape = (where: (string | number)[], n: unknown) => yaml.check(Array.isArray(n) ? NegativeShorthand : NegativeEntry, n, where);
  for (const [name, n] of Object.entries((raw.negative_controls ?? {}) as Record<string, unknown>)) checkShape(['negative_controls', name], n);
  for (const [profile, p] of Object.entries((raw.fault_profiles ?? {}) as Record<string, unknown>)) {
    const negatives = typeof p === 'object' && p !== null ? (p as { negative_controls?: Record<string, unknown> }).negative_controls ?? {} : {};
    for (const [name, n] of Object.entries(negatives)) checkShape(['fault_profiles', profile, 'negative_controls', name], n);
  }
  const checks = raw.checks.map((c, i) => {
    yaml.check(CheckHead, c, ['checks', i]);
    const type = (c as { type: keyof typeof CHECK_SCHEMAS }).type;
    yaml.check(CHECK_SCHEMAS[type], c, ['checks', i]);
    return c as CheckSpec;
  });
  const mutations = ((raw.mutations ?? []) as unknown[]).map((m, i) => {
    yaml.check(MutationHead, m, ['mutations', i]);
    yaml.check(MUTATION_SCHEMAS[(m as MutationSpec).op], m, ['mutations', i]);
    if ((m as MutationSpec).op === 'omit_text') return m as MutationSpec;
    const match = 'match' in (m as object) ? (m as { match: { path: string } }).match : (m as { after: { path: string } }).after;
    try {
      new RegExp(match.path);
    } catch (err) {
      throw yaml.error(['mutations', i, 'match' in (m as object) ? 'match' : 'after', 'path'], `is not a regular expression: ${(err as Error).message}`);
    }
    return m as MutationSpec;
  });
  const profiles = (raw.fault_profiles ?? {}) as Record<string, string | { spec: string; negative_controls?: Record<string, RawNegative> }>;
  const fault_profiles = Object.fromEntries(Object.entries(profiles).map(([name, p]) => [name, typeof p === 'string' ? { spec: p, negative_controls: {} } : { spec: p.spec, negative_controls: negativesOf(p.negative_controls) }]));
  const ownNegatives = negativesOf(raw.negative_controls as Record<string, RawNegative> | undefined);
  const ownIds = new Set(checks.map((c) => c.id));
  const spec: TaskSpec = {
    ...raw,
    projections: { ...base?.projections, ...raw.projections },
    checks: [...(base?.checks ?? []).filter((c) => !ownIds.has(c.id)), ...checks],
    negative_controls: { ...base?.negative_controls, ...ownNegatives },
    fault_profiles: { ...base?.fault_profiles, ...fault_profiles },
    positive_controls: { ...base?.positive_controls, ...((raw.positive_controls ?? {}) as Record<string, PositiveControl>) },
    mutations: [...(base?.mutations ?? []), ...mutations],
  };

  const ids = new Set<string>(spec.checks.filter((c) => !ownIds.has(c.id)).map((c) => c.id));
  checks.forEach((c, i) => {
    if (ids.has(c.id)) throw yaml.error(['checks', i, 'id'], `check id '${c.id}' is used twice`);
    ids.add(c.id);
    if ((c.type === 'state_set' || c.type === 'state_values') && !(c.projection in spec.projections)) {
      throw yaml.error(['checks', i, 'projection'], `no projection named '${c.projection}' (projections: ${Object.keys(spec.projections).join(', ') || 'none'})`);
    }
    const reference = (where: (string | number)[], v: unknown) => {
      if (typeof v === 'object' && v !== null && 'projection' in v && !(String(v.projection) in spec.projections)) {
        throw yaml.error([...where, 'projection'], `no projection named '${String(v.projection)}' (projections: ${Object.keys(spec.projections).join(', ') || 'none'})`);
      }
    };
    const expression = (where: (string | number)[], p: string) => {
      try {
        new RegExp(p, 'iu');
      } catch (err) {
        throw yaml.error(where, `is not a regular expression: ${(err as Error).message}`);
      }
    };
    if (c.type === 'text_numbers_present') c.numbers.forEach((n, j) => reference(['checks', i, 'numbers', j], n));
    if (c.type === 'text_sentence_matches') {
      c.patterns.forEach((p, j) => {
        const at = ['checks', i, 'patterns', j];
        if (typeof p === 'string') return expression(at, p);
        for (const field of ['all', 'none'] as const) (p[field] ?? []).forEach((e, k) => expression([...at, field, k], e));
        for (const field of ['mentions', 'mentions_none', 'numbers'] as const) (p[field] ?? []).forEach((v, k) => reference([...at, field, k], v));
      });
    }
    if (c.type === 'text_facts') {
      (c.subjects ?? []).forEach((k, m) => {
        if (!(k in c.vocabulary)) throw yaml.error(['checks', i, 'subjects', m], `'${k}' is not a concept of the check's vocabulary`);
      });
      c.facts.forEach((f, j) => {
        const at = ['checks', i, 'facts', j];
        if (f.each) reference([...at, 'each'], f.each);
        (f.concepts ?? []).forEach((k, m) => {
          if (typeof k === 'string' && !(k in c.vocabulary)) throw yaml.error([...at, 'concepts', m], `'${k}' is not a concept of the check's vocabulary`);
          if (typeof k !== 'string' && !f.each) throw yaml.error([...at, 'concepts', m], 'reads a column but the fact has no each');
        });
        for (const field of ['names', 'documents'] as const) (f[field] ?? []).forEach((v, m) => reference([...at, field, m], v));
        (f.amounts ?? []).forEach((a, m) => reference([...at, 'amounts', m, 'value'], a.value));
      });
    }
    if (c.type === 'state_unchanged' && c.where && typeof c.where === 'object') {
      const stray = Object.keys(c.where).find((t) => !c.tables.includes(t));
      if (stray) throw yaml.error(['checks', i, 'where', stray], `'${stray}' is not one of the check's tables`);
    }
    if (c.type === 'state_values' && Array.isArray(c.numeric)) {
      const stray = c.numeric.find((n) => !c.columns.includes(n));
      if (stray) throw yaml.error(['checks', i, 'numeric'], `'${stray}' is not one of the compared columns`);
    }
  });
  mutations.forEach((m, i) => {
    if (m.op === 'omit_text' && typeof m.value === 'object' && !(m.value.projection in spec.projections)) {
      throw yaml.error(['mutations', i, 'value', 'projection'], `no projection named '${m.value.projection}' (projections: ${Object.keys(spec.projections).join(', ') || 'none'})`);
    }
  });
  const checkNegative = (where: (string | number)[], n: NegativeControl, shorthand: boolean) => {
    n.fails.forEach((t, j) => {
      if (!ids.has(t)) throw yaml.error(shorthand ? [...where, j] : [...where, 'fails', j], `no check '${t}'`);
    });
    if (n.fails.length === 0 && n.refused.length === 0) throw yaml.error([...where, 'fails'], 'names no check to fail and no refusal to meet: such a control shows nothing');
  };
  for (const [neg, n] of Object.entries(ownNegatives)) checkNegative(['negative_controls', neg], n, Array.isArray((raw.negative_controls as Record<string, RawNegative>)[neg]));
  for (const [name, profile] of Object.entries(fault_profiles)) {
    const where = typeof profiles[name] === 'string' ? ['fault_profiles', name] : ['fault_profiles', name, 'spec'];
    try {
      parseFaultSpec(profile.spec);
    } catch (err) {
      throw yaml.error(where, (err as Error).message);
    }
    const rawProfile = profiles[name] as { negative_controls?: Record<string, RawNegative> } | string;
    for (const [neg, n] of Object.entries(profile.negative_controls)) {
      checkNegative(['fault_profiles', name, 'negative_controls', neg], n, typeof rawProfile !== 'string' && Array.isArray(rawProfile.negative_controls?.[neg]));
    }
  }
  spec.turns.forEach((t, i) => {
    const prev = spec.turns[i - 1];
    if (prev && t.date < prev.date) throw yaml.error(['turns', i, 'date'], `${t.date} is before the previous turn's ${prev.date}`);
  });
  const last = spec.turns[spec.turns.length - 1]!;
  if (spec.grading_date < last.date) throw yaml.error(['grading_date'], `${spec.grading_date} is before the last turn's ${last.date}`);
  return spec;
}

