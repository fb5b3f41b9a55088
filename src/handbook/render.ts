import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PlacedClause, Policies } from '../task-pack/policies';
import { PackError } from '../task-pack/yaml-file';

/** File name → Markdown, in handbook order. */
export type RenderedHandbook = Map<string, string>;

/**
 * One Markdown file per policy file: its title, then its blocks in order, each clause a paragraph
 * opening with its id in bold and its parameters filled in. Rule bindings are never rendered:
 * they are the grader's, not the agent's.
 */
export function renderHandbook(policies: Policies): RenderedHandbook {
  const out: RenderedHandbook = new Map();
  for (const file of policies.files) {
    const parts = [`# ${file.title.trim()}`];
    for (const block of file.blocks) {
      if (block.markdown !== undefined) parts.push(block.markdown.trim());
      else parts.push(`**${block.clause}** ${fillParams(policies.clauses.get(block.clause!)!)}`);
    }
    out.set(file.file, parts.join('\n\n') + '\n');
  }
  return out;
}

/** The clause text with `{param}` replaced by its value; `{{` and `}}` are literal braces. */
export function fillParams(clause: PlacedClause): string {
  const params = clause.params ?? {};
  return clause.text.trim().replace(/\{\{|\}\}|\{([a-z][a-z0-9_]*)\}/g, (match, name: string | undefined) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    const value = params[name!];
    if (value === undefined) throw new PackError(clause.source, `clauses.${clause.id}.params`, `the text uses {${name}} and params gives no value for it`);
    return String(value);
  });
}

/** Placeholders a clause's text uses. */
export function placeholders(text: string): string[] {
  return [...text.replace(/\{\{|\}\}/g, '').matchAll(/\{([a-z][a-z0-9_]*)\}/g)].map((m) => m[1]!);
}

/** Writes the rendered handbook, removing Markdown files no policy file renders any more. */
export function writeHandbook(rendered: RenderedHandbook, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) if (name.endsWith('.md') && !rendered.has(name)) rmSync(join(dir, name));
  for (const [name, text] of rendered) writeFileSync(join(dir, name), text);
  return [...rendered.keys()];
}

export interface HandbookDiff {
  ok: boolean;
  missing: string[];
  extra: string[];
  differing: string[];
}

/** Compares a committed handbook folder with the rendering, byte for byte. */
export function diffHandbook(rendered: RenderedHandbook, dir: string): HandbookDiff {
  const committed = existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.md')).sort() : [];
  const missing = [...rendered.keys()].filter((n) => !committed.includes(n)).sort();
  const extra = committed.filter((n) => !rendered.has(n));
  const differing = committed.filter((n) => rendered.has(n) && readFileSync(join(dir, n), 'utf8') !== rendered.get(n));
  return { ok: missing.length + extra.length + differing.length === 0, missing, extra, differing };
}
