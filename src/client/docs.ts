interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  const?: unknown;
  description?: string;
  format?: string;
  default?: unknown;
  'x-money'?: boolean;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema; description?: string }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  'x-permission'?: string | null;
}

export interface OpenApiDoc {
  paths?: Record<string, Record<string, Operation>>;
}

export interface HandbookFile {
  name: string;
  text: string;
}

function typeOf(s: Schema | undefined): string {
  if (!s) return 'any';
  if (s['x-money']) return 'amount';
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.anyOf) return s.anyOf.map(typeOf).join(' | ');
  if (s.enum) return s.enum.map((e) => JSON.stringify(e)).join(' | ');
  if (s.type === 'array') return `${typeOf(s.items)}[]`;
  const t = Array.isArray(s.type) ? s.type.join('|') : s.type ?? 'object';
  return s.format ? `${t} (${s.format})` : t;
}

function fieldLines(schema: Schema | undefined, indent: string): string[] {
  const props = schema?.properties ?? {};
  const required = new Set(schema?.required ?? []);
  return Object.entries(props).map(([name, s]) => {
    const bits = [`${indent}${name}${required.has(name) ? '' : '?'}: ${typeOf(s)}`];
    if (s.default !== undefined) bits.push(`default ${JSON.stringify(s.default)}`);
    if (s.description) bits.push(`— ${s.description}`);
    const line = bits.join(' ');
    const nested = s.type === 'array' && s.items?.properties ? fieldLines(s.items, indent + '    ') : s.properties ? fieldLines(s, indent + '    ') : [];
    return [line, ...nested].join('\n');
  });
}

function operations(doc: OpenApiDoc): { method: string; path: string; op: Operation }[] {
  const out: { method: string; path: string; op: Operation }[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) out.push({ method: method.toUpperCase(), path, op });
  }
  return out.sort((a, b) => (a.path === b.path ? a.method.localeCompare(b.method) : a.path.localeCompare(b.path)));
}

function detail(method: string, path: string, op: Operation): string {
  const lines = [`${method} ${path}`, `  ${op.summary ?? ''}`];
  if (op.description) lines.push(`  ${op.description}`);
  if (op['x-permission']) lines.push(`  permission: ${op['x-permission']}`);
  const params = (op.parameters ?? []).filter((p) => p.in !== 'header');
  if (params.length) {
    lines.push('  parameters:');
    for (const p of params) {
      const about = p.description ?? p.schema?.description;
      lines.push(`    ${p.name}${p.required ? '' : '?'} (${p.in}): ${typeOf(p.schema)}${p.schema?.default !== undefined ? ` default ${JSON.stringify(p.schema.default)}` : ''}${about ? ` — ${about}` : ''}`);
    }
  }
  const body = op.requestBody?.content?.['application/json']?.schema;
  if (body?.properties && Object.keys(body.properties).length) {
    lines.push('  body:');
    lines.push(...fieldLines(body, '    '));
  }
  return lines.join('\n');
}

/**
 * The `erp docs` text: without a word, one line per endpoint and the handbook's files; with a
 * word, every endpoint whose path, summary or tag mentions it in full, and the handbook paragraphs
 * that mention it.
 */
export function renderDocs(doc: OpenApiDoc, word: string | undefined, handbook: readonly HandbookFile[]): string {
  const ops = operations(doc);
  const out: string[] = [];
  if (!word) {
    out.push('bb-erp API (every request: Authorization: Bearer $ERP_TOKEN; writes accept an Idempotency-Key header)', '');
    for (const { method, path, op } of ops) out.push(`${method.padEnd(6)} ${path.padEnd(44)} ${op.summary ?? ''}`);
    out.push('', 'Details of an endpoint or a topic: erp docs <word>   (e.g. erp docs purchase-orders)');
    if (handbook.length) {
      out.push('', 'Handbook (handbook/ in your workspace):');
      for (const f of handbook) out.push(`  ${f.name}  ${firstHeading(f.text)}`);
    }
    return out.join('\n') + '\n';
  }
  const w = word.toLowerCase();
  const matching = ops.filter(({ path, op }) => mentions(path, op, w));
  if (matching.length) out.push(...matching.map(({ method, path, op }) => detail(method, path, op) + '\n'));
  else out.push(`No endpoint mentions "${word}".`, '');
  const paragraphs = paragraphsMentioning(handbook, w).map(({ file, paragraph }) => `[${file}]\n${paragraph}`);
  if (paragraphs.length) out.push('Handbook:', '', ...paragraphs.map((p) => p + '\n'));
  return out.join('\n').trimEnd() + '\n';
}

export interface DocsData {
  endpoints: { method: string; path: string; summary: string; description?: string; permission: string | null; parameters?: unknown[]; body?: unknown }[];
  handbook: { file: string; heading: string }[] | { file: string; paragraph: string }[];
}

/**
 * `erp docs --json`: the same selection as the text, as data. Without a word, every endpoint (method,
 * path, summary, permission) and the handbook's files; with one, the matching endpoints with their
 * parameters and body schema, and the handbook paragraphs that mention it.
 */
export function docsData(doc: OpenApiDoc, word: string | undefined, handbook: readonly HandbookFile[]): DocsData {
  const ops = operations(doc);
  if (!word) {
    return {
      endpoints: ops.map(({ method, path, op }) => ({ method, path, summary: op.summary ?? '', permission: op['x-permission'] ?? null })),
      handbook: handbook.map((f) => ({ file: f.name, heading: firstHeading(f.text) })),
    };
  }
  const w = word.toLowerCase();
  return {
    endpoints: ops.filter(({ path, op }) => mentions(path, op, w)).map(({ method, path, op }) => ({
      method, path, summary: op.summary ?? '', ...(op.description ? { description: op.description } : {}), permission: op['x-permission'] ?? null,
      parameters: (op.parameters ?? []).filter((p) => p.in !== 'header'), body: op.requestBody?.content?.['application/json']?.schema,
    })),
    handbook: paragraphsMentioning(handbook, w).map(({ file, paragraph }) => ({ file, paragraph })),
  };
}

function mentions(path: string, op: Operation, w: string): boolean {
  return [path, op.summary ?? '', op.description ?? '', ...(op.tags ?? []), op.operationId ?? ''].some((t) => t.toLowerCase().includes(w));
}

function paragraphsMentioning(handbook: readonly HandbookFile[], w: string): { file: string; paragraph: string }[] {
  return handbook.flatMap((f) => f.text.split(/\n\s*\n/).filter((p) => p.toLowerCase().includes(w)).map((p) => ({ file: f.name, paragraph: p.trim() })));
}

function firstHeading(text: string): string {
  return /^#+\s*(.+)$/m.exec(text)?.[1] ?? '';
}
