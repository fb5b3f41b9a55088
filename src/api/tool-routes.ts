import { Type } from '@sinclair/typebox';
import { defineQuery, type RouteDef } from '../domain/action';
import { buildManifest, roleToolset, type ToolManifest } from './tools';
import { COMPANY_TOOLSETS } from './toolsets';

/** Manifests built so far, by toolset or by the permissions they were built for: the registry does not change. */
const built = new Map<string, ToolManifest>();

/**
 * GET /tools.json: the caller's tools as function-calling JSON Schemas. A company with a toolset of
 * its own (COMPANY_TOOLSETS) gives every caller that toolset; otherwise the caller gets one tool
 * per route its roles let it call. `erp call`, `erp mcp` and the reference LLM agent all read it.
 */
export function toolRoutes(routes: () => readonly RouteDef[]): RouteDef[] {
  return [
    defineQuery({
      path: '/tools.json', tag: 'session', permission: null,
      summary: 'Your tools: the endpoints you may call as function-calling tools, with JSON Schemas of their arguments and where each argument goes',
      query: Type.Object({}, { additionalProperties: false }),
      run: (_input, ctx) => {
        const code = ctx.read.clock.company()?.code ?? '';
        const own = COMPANY_TOOLSETS[code];
        const key = own ? `toolset:${own.name}` : `permissions:${[...ctx.actor.permissions].sort().join(',')}`;
        let manifest = built.get(key);
        if (!manifest) {
          const all = routes();
          manifest = buildManifest(own ?? roleToolset(all, ctx.actor.permissions), all);
          built.set(key, manifest);
        }
        return manifest;
      },
    }),
  ];
}
