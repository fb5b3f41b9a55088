import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { buildOpenApi } from '../../src/api/openapi';
import { allRoutes } from '../../src/api/routes';
import { pathParams } from '../../src/api/router';
import { liveServer } from '../support/http';

const doc = buildOpenApi(allRoutes(), '0.0.0-test') as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };

describe('the OpenAPI document', () => {
  it('validates as OpenAPI 3.1', () => {
    const out = execFileSync(process.execPath, [join(__dirname, '..', 'support', 'validate-openapi.mjs')], { input: JSON.stringify(doc), encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ valid: true, version: '3.1', errors: [] });
  });

  it('is locked by a snapshot: every change to the contract shows in review', () => {
    expect(doc).toMatchSnapshot();
  });

  it('declares every path parameter of every registered route', () => {
    for (const route of allRoutes()) {
      const op = doc.paths[route.path]![route.method.toLowerCase()]!;
      const declared = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name).sort();
      expect({ route: `${route.method} ${route.path}`, declared }).toEqual({ route: `${route.method} ${route.path}`, declared: pathParams(route.path).sort() });
      if (route.params) {
        const schemaKeys = Object.keys((route.params as { properties: object }).properties).sort();
        expect({ route: route.path, schemaKeys }).toEqual({ route: route.path, schemaKeys: pathParams(route.path).sort() });
      }
    }
  });

  it('describes every operation and gives an example of its request and success bodies', () => {
    const ops = doc as unknown as { paths: Record<string, Record<string, { description?: string; requestBody?: { content: Record<string, { example?: unknown }> }; responses: Record<string, { content?: Record<string, { example?: unknown }> }> }>> };
    const lacking: string[] = [];
    for (const [path, item] of Object.entries(ops.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const success = Object.entries(op.responses).find(([status]) => status.startsWith('2'))?.[1];
        if (!op.description) lacking.push(`${method} ${path}: description`);
        if (success?.content?.['application/json']?.example === undefined) lacking.push(`${method} ${path}: success example`);
        if (op.requestBody && op.requestBody.content['application/json']?.example === undefined) lacking.push(`${method} ${path}: request example`);
      }
    }
    expect(lacking).toEqual([]);
  });

  it('describes every tag', () => {
    const tags = (doc as unknown as { tags: { name: string; description?: string }[] }).tags;
    expect(tags.filter((t) => !t.description).map((t) => t.name)).toEqual([]);
  });

  it('is served at /openapi.json', async () => {
    const live = await liveServer();
    try {
      const res = await live.client(null).get<{ openapi: string; paths: object }>('/openapi.json');
      expect(res.status).toBe(200);
      expect(res.body.openapi).toBe('3.1.0');
      expect(Object.keys(res.body.paths).sort()).toEqual(Object.keys(doc.paths).sort());
    } finally {
      await live.server.close();
    }
  });
});
