import { Type, type Static, type TObject } from '@sinclair/typebox';
import { defineQuery, type QueryContext, type RouteDef } from '../action';

/**
 * A report: an id (`trial-balance`), a one-line summary, its parameters as a strict TypeBox object
 * (query-string values are coerced and validated by it), the permission it needs, and `run`, which
 * returns the body. Money in a report's output is decimal.
 */
export interface ReportDef<P extends TObject = TObject> {
  id: string;
  summary: string;
  description?: string;
  params: P;
  permission: string | null;
  run(ctx: QueryContext, params: Static<P>): object;
}

const reports = new Map<string, ReportDef>();

/** Registers a report; its route GET /reports/{id} and its entry in GET /reports follow. */
export function defineReport<P extends TObject>(def: ReportDef<P>): ReportDef<P> {
  if (!/^[a-z][a-z0-9-]*$/.test(def.id)) throw new Error(`Report id ${def.id} must be lower-case words joined by hyphens.`);
  if (reports.has(def.id)) throw new Error(`Report ${def.id} is defined twice.`);
  if (def.params.additionalProperties !== false) throw new Error(`Report ${def.id}: its params must refuse unknown fields (additionalProperties: false).`);
  reports.set(def.id, def as unknown as ReportDef);
  return def;
}

export function listReports(): ReportDef[] {
  return [...reports.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** A strict parameter object for defineReport. */
export const ReportParams = <P extends Parameters<typeof Type.Object>[0]>(properties: P) => Type.Object(properties, { additionalProperties: false });

/**
 * GET /reports, one route per report (a literal path, so its own schema validates its query
 * string: a bad parameter is a 400), and GET /reports/{id} for ids no report has (404).
 * Built when the API is: every report module imported by then is listed.
 */
export function reportRoutes(): RouteDef[] {
  const defined = listReports();
  return [
    defineQuery({
      path: '/reports', tag: 'reports', summary: 'The reports: id, summary, the permission each needs and its parameters', permission: null,
      query: Type.Object({}, { additionalProperties: false }),
      run: (_input, ctx) => ({
        items: defined.map((r) => ({
          id: r.id, summary: r.summary, permission: r.permission, allowed: r.permission === null || ctx.actor.permissions.has(r.permission),
          parameters: JSON.parse(JSON.stringify(r.params)) as unknown,
        })),
        total: defined.length,
      }),
    }),
    defineQuery({
      path: '/reports/{id}', tag: 'reports', summary: 'Run a report by id (see GET /reports)', permission: null, objectType: 'report',
      query: Type.Object({}, { additionalProperties: true }),
      run: () => undefined,
    }),
    ...defined.map((r) => defineQuery({
      path: `/reports/${r.id}`, tag: 'reports', summary: r.summary, description: r.description, permission: r.permission, objectType: 'report',
      query: r.params,
      run: ({ query }, ctx) => ({ report: r.id, params: query, ...r.run(ctx, query) }),
    })),
  ];
}
