import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildOpenApi } from '../../src/api/openapi';
import { allRoutes } from '../../src/api/routes';

/** The document as third-party tools read it: the pinned Redocly linter and openapi-typescript. */
const ROOT = resolve(__dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'bb-erp-openapi-'));
const docFile = join(dir, 'openapi.json');
writeFileSync(docFile, JSON.stringify(buildOpenApi(allRoutes(), '0.0.0-test'), null, 2));

describe('the OpenAPI document under third-party tooling', () => {
  it('passes redocly lint with no errors and no warnings', () => {
    const res = spawnSync(join(ROOT, 'node_modules', '.bin', 'redocly'), ['lint', docFile, '--format', 'json'], { encoding: 'utf8', cwd: dir, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } });
    const report = JSON.parse(res.stdout.slice(res.stdout.indexOf('{'))) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] };
    // Warnings too: an undescribed tag, an example its schema refuses, an operation with no success response.
    expect(report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(res.status).toBe(0);
  }, 60_000);

  it('generates types with openapi-typescript, typed response fields included, that a strict client compiles against', () => {
    const types = join(dir, 'erp.d.ts');
    execFileSync(join(ROOT, 'node_modules', '.bin', 'openapi-typescript'), [docFile, '-o', types], { encoding: 'utf8', stdio: 'pipe' });
    writeFileSync(join(dir, 'client.ts'), [
      "import type { paths, components } from './erp';",
      "type Problem = components['schemas']['Problem'];",
      "type HoldBody = paths['/ap-invoices/{id}/holds']['post']['requestBody']['content']['application/json'];",
      "type HoldPath = paths['/ap-invoices/{id}/holds']['post']['parameters']['path'];",
      "type HoldKey = NonNullable<paths['/ap-invoices/{id}/holds']['post']['parameters']['header']>['Idempotency-Key'];",
      "export function holdRequest(path: HoldPath, body: HoldBody, key: HoldKey): { url: string; body: string; key: HoldKey } {",
      "  return { url: `/ap-invoices/${encodeURIComponent(path.id)}/holds`, body: JSON.stringify(body), key };",
      '}',
      "export const problemCode = (p: Problem): string => p.code;",
      // Success bodies are typed field by field: these compile only if the generated types say so.
      "type Po = paths['/purchase-orders/{id}']['get']['responses']['200']['content']['application/json'];",
      "export const poTotal = (po: Po): number => po.total;",
      "export const firstLineOpen = (po: Po): number | undefined => po.lines[0]?.open_qty;",
      "export const poDate = (po: Po): string => po.business_date;",
      "type Sent = paths['/purchase-orders/{id}/send']['post']['responses']['200']['content']['application/json'];",
      "export const sentEvent = (s: Sent): number => s.event_id;",
      "type Aging = paths['/reports/ap-aging']['get']['responses']['200']['content']['application/json'];",
      "export const agingVendors = (a: Aging): string[] => a.vendors.map((v) => v.vendor);",
      // …and not loosely: a field no view has is an error.
      '// @ts-expect-error no purchase order has this field',
      "export const missing = (po: Po): unknown => po.no_such_field;",
      "export const refused: paths['/ap-invoices/{id}/holds']['post']['responses']['405']['content']['application/problem+json'] = { type: 'about:blank', title: 'Method Not Allowed', status: 405, code: 'method_not_allowed', detail: 'x', business_date: '2026-10-06' };",
      '',
    ].join('\n'));
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '--strict', '--noEmit', '--target', 'es2022', '--moduleResolution', 'node', join(dir, 'client.ts')], { encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 60_000);
});
