import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientResponse } from '../client/http-client';
import type { AgentPolicy } from '../task-pack/code';
import type { MutationSpec, RequestMatchSpec } from '../task-pack/schema';
import { isWrite, sendThrough, unsent, wrappedPolicy, type ApiRequest, type Send } from './request-wrap';

/** What a mutant did to the oracle's requests over one attempt. */
export interface MutantState {
  /** Requests the mutation's match picked. */
  matched: number;
  /** Requests it changed, withheld, moved or added to: 0 means the mutant made the oracle's writes. */
  changed: number;
  /** later_day: writes waiting for the next turn (those left after the last turn were never made). */
  deferred: ApiRequest[];
  /** What went out: every request sent through the mutant, in order. */
  sent: ApiRequest[];
  /** add: the refusal codes of added requests the server refused (a hard control stopped the forbidden action). */
  refusedAdds: string[];
  /** split: each first document's id → the second one split off it, and how many elements the first kept. */
  twins: Map<string, { second: string; kept: number }>;
}

export const newMutantState = (): MutantState => ({ matched: 0, changed: 0, deferred: [], sent: [], refusedAdds: [], twins: new Map() });

/** The match's groups when the request is one it picks (any write when it names no method), else null. */
export function matchRequest(m: Omit<RequestMatchSpec, 'nth'>, req: ApiRequest, turn: number): RegExpExecArray | null {
  if (m.method ? req.method !== m.method : !isWrite(req)) return null;
  if (m.turn !== undefined && m.turn !== turn) return null;
  const hit = new RegExp(m.path).exec(req.path.split('?')[0]!);
  if (!hit) return null;
  for (const [field, want] of Object.entries(m.body ?? {})) {
    const have = fieldValues(req.options.body, field.split('.'));
    if (!have.some((v) => v === want || (v !== undefined && want !== null && String(v) === String(want)))) return null;
  }
  return hit;
}

function fieldValues(value: unknown, path: readonly string[]): unknown[] {
  if (path.length === 0) return [value];
  if (value === null || typeof value !== 'object') return [undefined];
  const [head, ...rest] = path;
  if (head === '*') return Array.isArray(value) ? value.flatMap((v) => fieldValues(v, rest)) : [undefined];
  return fieldValues((value as Record<string, unknown>)[head!], rest);
}

const DROP = Symbol('drop');

/** A copy of `value` with the field at `path` replaced by `fn` of it (DROP removes it); `changed` counts replacements that differ. */
function updateField(value: unknown, path: readonly string[], fn: (v: unknown) => unknown, changed: { n: number }): unknown {
  if (value === null || typeof value !== 'object') return value;
  const [head, ...rest] = path;
  if (head === '*') return Array.isArray(value) ? value.map((v) => updateField(v, rest, fn, changed)) : value;
  const copy: Record<string, unknown> = Array.isArray(value) ? ([...value] as unknown as Record<string, unknown>) : { ...(value as Record<string, unknown>) };
  if (rest.length > 0) {
    copy[head!] = updateField(copy[head!], rest, fn, changed);
    return copy;
  }
  const before = copy[head!];
  const after = fn(before);
  if (after === DROP) {
    if (head! in copy) {
      delete copy[head!];
      changed.n++;
    }
  } else if (after !== before) {
    copy[head!] = after;
    changed.n++;
  }
  return copy;
}

function shiftDate(v: unknown, days: number): unknown {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return v;
  const d = new Date(`${v}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function negate(v: unknown): unknown {
  if (typeof v === 'number') return v === 0 ? v : -v;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim()) && Number(v) !== 0) return v.trim().startsWith('-') ? v.trim().slice(1) : `-${v.trim()}`;
  return v;
}

/** The body's field changed as the operator says; changed.n counts the values that differ. */
function editBody(m: MutationSpec, body: unknown, changed: { n: number }): unknown {
  const path = 'field' in m ? m.field.split('.') : [];
  switch (m.op) {
    case 'shift_field': return updateField(body, path, (v) => shiftDate(v, m.days), changed);
    case 'set_field': return updateField(body, path, () => m.value, changed);
    case 'negate_field': return updateField(body, path, negate, changed);
    case 'drop_field': return updateField(body, path, () => DROP, changed);
    default: return body;
  }
}

/** A template's strings with `{path.N}`, `{body.F}` and `{response.F}` filled in; a string that is one placeholder takes the value itself. */
export function fillTemplate(template: unknown, scope: { path: RegExpExecArray; body: unknown; response: unknown }): unknown {
  const lookup = (name: string): unknown => {
    const [root, ...rest] = name.split('.');
    if (root === 'path') return scope.path[Number(rest[0])];
    if (root === 'body' || root === 'response') return fieldValues(root === 'body' ? scope.body : scope.response, rest)[0];
    throw new Error(`A mutation's template names {${name}}: only {path.N}, {body.F} and {response.F} are known.`);
  };
  if (typeof template === 'string') {
    const whole = /^\{([^{}]+)\}$/.exec(template);
    if (whole) return lookup(whole[1]!);
    return template.replace(/\{([^{}]+)\}/g, (_m, name: string) => String(lookup(name) ?? ''));
  }
  if (Array.isArray(template)) return template.map((t) => fillTemplate(t, scope));
  if (template && typeof template === 'object') return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, fillTemplate(v, scope)]));
  return template;
}

/**
 * One turn's sender of a mutant: the oracle's requests through `inner`, those the mutation picks
 * withheld, moved to the next turn, edited, or followed by the request it adds.
 */
export function mutationSend(m: Exclude<MutationSpec, { op: 'omit_text' }>, inner: Send, turn: number, state: MutantState): Send {
  const out: Send = (req) => {
    state.sent.push(req);
    return inner(req);
  };
  const match = m.op === 'add' ? m.after : m.match;
  return async (req): Promise<ClientResponse> => {
    const hit = matchRequest(match, req, turn);
    if (!hit) return m.op === 'split' ? alsoOnTwins(m, req, state, out) : out(req);
    state.matched++;
    if (match.nth !== undefined && state.matched !== match.nth) return out(req);
    switch (m.op) {
      case 'skip':
        state.changed++;
        return unsent();
      case 'later_day':
        state.changed++;
        state.deferred.push(req);
        return unsent();
      case 'split': return splitRequest(m, req, state, out);
      case 'add': {
        const res = await out(req);
        state.changed++;
        const scope = { path: hit, body: req.options.body, response: res.body };
        const added = await out({ method: m.request.method, path: String(fillTemplate(m.request.path, scope)), options: { body: fillTemplate(m.request.body ?? {}, scope) } });
        if (added.status >= 400) state.refusedAdds.push(String((added.body as { code?: unknown } | null)?.code ?? added.status));
        return res;
      }
      default: {
        const changed = { n: 0 };
        const body = editBody(m, req.options.body, changed);
        if (changed.n > 0) state.changed++;
        return out({ ...req, options: { ...req.options, body } });
      }
    }
  };
}

/** The request sent as two documents: the first element of its array field alone, then the rest. */
async function splitRequest(m: Extract<MutationSpec, { op: 'split' }>, req: ApiRequest, state: MutantState, out: Send): Promise<ClientResponse> {
  const path = m.field.split('.');
  const array = fieldValues(req.options.body, path)[0];
  if (!Array.isArray(array) || array.length < 2) return out(req);
  const part = (elements: unknown[]) => updateField(req.options.body, path, () => elements, { n: 0 });
  const first = await out({ ...req, options: { ...req.options, body: part(array.slice(0, 1)) } });
  const second = await out({ ...req, options: { ...req.options, body: part(array.slice(1)), ...(req.options.idempotencyKey ? { idempotencyKey: `${req.options.idempotencyKey}~split` } : {}) } });
  state.changed++;
  const idPath = (m.id_field ?? 'id').split('.');
  const [a, b] = [fieldValues(first.body, idPath)[0], fieldValues(second.body, idPath)[0]];
  if (typeof a === 'string' && typeof b === 'string' && first.status < 300 && second.status < 300) state.twins.set(a, { second: b, kept: 1 });
  return first;
}

/**
 * A write naming a document split in two: one naming an element by number (`line_field`) goes to
 * the part holding it, renumbered; any other is made on both parts (the oracle sees the first answer).
 */
async function alsoOnTwins(m: Extract<MutationSpec, { op: 'split' }>, req: ApiRequest, state: MutantState, out: Send): Promise<ClientResponse> {
  const path = req.path.split('?')[0]!;
  const twin = isWrite(req) ? [...state.twins].find(([first]) => new RegExp(`(^|/)${escape(first)}(/|$)`).test(path)) : undefined;
  if (!twin) return out(req);
  const [first, { second, kept }] = twin;
  const onSecond = (body: unknown): ApiRequest => ({
    ...req, path: req.path.replace(first, second),
    options: { ...req.options, body, ...(req.options.idempotencyKey ? { idempotencyKey: `${req.options.idempotencyKey}~${second}` } : {}) },
  });
  const linePath = m.line_field?.split('.');
  const line = linePath ? fieldValues(req.options.body, linePath)[0] : undefined;
  if (linePath && typeof line === 'number') {
    return line > kept ? out(onSecond(updateField(req.options.body, linePath, () => line - kept, { n: 0 }))) : out(req);
  }
  const res = await out(req);
  await out(onSecond(req.options.body));
  return res;
}

/** How a value may be written in text: as given, and a number also with two decimals and thousands separators. */
function writtenForms(value: string): string[] {
  const forms = new Set([value.trim()]);
  const n = Number(value.replace(/,/g, ''));
  if (value.trim() !== '' && Number.isFinite(n)) {
    const abs = Math.abs(n);
    for (const text of [abs.toFixed(2), abs.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }), ...(Number.isInteger(abs) ? [String(abs), abs.toLocaleString('en-US')] : [String(abs)])]) forms.add(text);
  }
  return [...forms].filter(Boolean);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Markdown with the units that state any of the values dropped: a list item with the lines nested
 * under it, a table row, or any other line. A value matches as a whole word or number, case aside.
 * Returns the text and how many units went.
 */
export function omitStating(markdown: string, values: readonly string[]): { text: string; dropped: number } {
  const forms = values.flatMap(writtenForms);
  if (forms.length === 0) return { text: markdown, dropped: 0 };
  const stated = new RegExp(`(?<![\\w.,])(${forms.map(escape).join('|')})(?![\\w]|[.,]\\d)`, 'i');
  const lines = markdown.split('\n');
  const indent = (l: string) => /^\s*/.exec(l)![0].length;
  const item = /^\s*([-*+]|\d+[.)])\s/;
  const out: string[] = [];
  let dropped = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!stated.test(line)) {
      out.push(line);
      continue;
    }
    dropped++;
    if (!item.test(line)) continue;
    // A list item goes with everything indented under it.
    const own = indent(line);
    while (i + 1 < lines.length && lines[i + 1]!.trim() !== '' && indent(lines[i + 1]!) > own) i++;
  }
  return { text: out.join('\n'), dropped };
}

/**
 * The oracle with one mutation applied; the state says afterwards what the mutation did. A new one
 * for every attempt. `values`: what an omit_text mutation's value stands for on this scenario.
 */
export function mutantPolicy(oracle: AgentPolicy, m: MutationSpec, values: readonly string[] = []): { policy: AgentPolicy; state: MutantState } {
  const state = newMutantState();
  if (m.op === 'omit_text') {
    const policy: AgentPolicy = async (ctx) => {
      try {
        await oracle(ctx);
      } finally {
        const file = join(ctx.workspace, m.file);
        if (existsSync(file)) {
          state.matched++;
          const edited = omitStating(readFileSync(file, 'utf8'), values);
          if (edited.dropped > 0) {
            state.changed++;
            writeFileSync(file, edited.text);
          }
        }
      }
    };
    return { policy, state };
  }
  const policy = wrappedPolicy(oracle, async (ctx) => {
    const inner = sendThrough(ctx.client);
    // Writes moved off an earlier turn's day are made first, on this one.
    for (const req of state.deferred.splice(0)) {
      state.sent.push(req);
      await inner(req);
    }
    return { send: mutationSend(m, inner, ctx.turn.index, state) };
  });
  return { policy, state };
}

/** A mutation's name in validation rows: the clause part it breaks and the operator, numbered when a pack has several alike. */
export function mutationNames(mutations: readonly MutationSpec[]): string[] {
  const base = mutations.map((m) => `mut:${m.breaks}~${m.op}`);
  return base.map((b, i) => (base.filter((x) => x === b).length > 1 ? `${b}#${base.slice(0, i + 1).filter((x) => x === b).length}` : b));
}
