import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { routeResponses } from '../../src/build/route-responses';

/** A small project declaring routes the way the ERP's areas do, for the generator to read. */
function generate(source: string) {
  const root = mkdtempSync(join(tmpdir(), 'bb-erp-responses-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'define.ts'), [
    'export interface Refusal { ok: false; code: string; detail: string; status: number }',
    'export const defineAction = (def: { method: string; path: string; view?(read: unknown, id: string): unknown }) => def;',
    'export const defineQuery = (def: { path: string; run(input: unknown): unknown }) => def;',
    'export const defineReport = (def: { id: string; run(ctx: unknown, params: { as_of?: string }): object }) => def;',
    '',
  ].join('\n'));
  writeFileSync(join(root, 'src', 'routes.ts'), `import { defineAction, defineQuery, defineReport, type Refusal } from './define';\n${source}`);
  const program = ts.createProgram({ rootNames: [join(root, 'src', 'routes.ts')], options: { strict: true, target: ts.ScriptTarget.ES2022, noEmit: true } });
  return routeResponses(program, root);
}

describe('the response schema generator', () => {
  const out = generate(`
    type Status = 'draft' | 'sent';
    interface DocRow { id: string; status: Status; note?: string; approved_by: string | null; total: number; draft: boolean }
    export function docView(_read: unknown, id: string) {
      if (!id) return undefined;
      const row: DocRow = { id, status: 'draft', approved_by: null, total: 1, draft: true };
      return { ...row, lines: [{ line: 1, qty: 2 }], links: [] as { rel: string; id: string }[] };
    }
    const one = (path: string, view: typeof docView) => defineQuery({ path, run: () => view(null, 'x') });
    export const routes = [
      defineAction({ method: 'POST', path: '/docs', view: docView }),
      defineAction({ method: 'POST', path: '/docs/{id}/send', view: docView }),
      defineAction({ method: 'POST', path: '/pings' }),
      defineQuery({ path: '/docs', run: (): { items: DocRow[]; total: number } | Refusal => ({ items: [], total: 0 }) }),
      defineQuery({ path: '/nothing/{id}', run: () => undefined }),
      one('/made/{id}', docView),
      defineReport({ id: 'counts', run: (_ctx, params) => ({ as_of: params.as_of ?? '', count: 3 }) }),
    ];
  `);

  it("finds each route by method and path, a factory's routes at their calls, a report at /reports/{id}", () => {
    expect(Object.keys(out.routes).sort()).toEqual(['GET /docs', 'GET /made/{id}', 'GET /nothing/{id}', 'GET /reports/counts', 'POST /docs', 'POST /docs/{id}/send', 'POST /pings']);
    expect(out.unresolved).toEqual([]);
  });

  it('writes a named view once, as a component the routes answering with it reference, with the fields the pipeline adds', () => {
    for (const key of ['POST /docs', 'POST /docs/{id}/send']) {
      expect(out.routes[key]!.schema).toEqual({ allOf: [{ $ref: '#/components/schemas/DocView' }, expect.objectContaining({ required: ['event_id', 'business_date'] })] });
    }
    const view = out.components.DocView as { properties: Record<string, unknown>; required: string[] };
    expect(view.properties.status).toEqual({ $ref: '#/components/schemas/Status' });
    expect(out.components.Status).toEqual({ type: 'string', enum: ['draft', 'sent'] });
    expect(view.properties.approved_by).toEqual({ type: ['null', 'string'] });
    expect(view.properties.draft).toEqual({ type: 'boolean' });
    expect(view.properties.lines).toEqual({ type: 'array', items: { type: 'object', properties: { line: { type: 'number' }, qty: { type: 'number' } }, required: ['line', 'qty'] } });
    expect(view.required).not.toContain('note');
    expect(view.required).toEqual(expect.arrayContaining(['id', 'status', 'approved_by', 'total', 'lines', 'links']));
  });

  it("answers an action without a view with its id, and leaves refusals and 404s out of a query's body", () => {
    expect(out.routes['POST /pings']!.schema).toMatchObject({ properties: { id: { type: 'string' } }, required: ['id', 'event_id', 'business_date'] });
    const list = out.routes['GET /docs']!.schema as { properties: Record<string, unknown> };
    expect(Object.keys(list.properties)).toEqual(['items', 'total', 'business_date']);
    expect(list.properties.items).toEqual({ type: 'array', items: { $ref: '#/components/schemas/DocRow' } });
    expect(out.routes['GET /nothing/{id}']!.schema).toEqual({ not: {} });
    expect(out.routes['GET /made/{id}']!.schema).toEqual({ allOf: [{ $ref: '#/components/schemas/DocView' }, expect.anything()] });
  });

  it('gives a report its id, its parameters and what its run returns', () => {
    expect(out.routes['GET /reports/counts']!.schema).toMatchObject({
      properties: { as_of: { type: 'string' }, count: { type: 'number' }, report: { const: 'counts' }, params: { properties: { as_of: { type: 'string' } } } },
      required: ['as_of', 'count', 'report', 'params', 'business_date'],
    });
  });
});
