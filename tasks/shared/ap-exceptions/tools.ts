import type { Tool, ToolManifest } from '../../../src/api/tools';
import type { ErpClient } from '../../../src/client/http-client';

export interface ToolResult {
  status: number;
  body: any;
}

/**
 * The agent's side of the tool surface (seed 004's `env.call`): every policy of these packs acts
 * only through the tools of /tools.json, each call placed in its route by the tool's binding.
 */
export class ToolEnv {
  private constructor(private readonly client: ErpClient, private readonly tools: Map<string, Tool>, private readonly log: (line: string) => void) {}

  static async open(client: ErpClient, log: (line: string) => void = () => undefined): Promise<ToolEnv> {
    const res = await client.get<ToolManifest>('/tools.json');
    if (res.status !== 200) throw new Error(`GET /tools.json: ${res.status} ${res.text}`);
    return new ToolEnv(client, new Map(res.body.tools.map((t) => [t.name, t])), log);
  }

  async call(name: string, args: Record<string, unknown> = {}, key?: string): Promise<ToolResult> {
    const tool = this.tools.get(name);
    if (!tool) throw new Error(`No tool ${name}.`);
    // Through the client, so this shared file imports only types and a copied tasks/shared/ loads on its own.
    const { request: req, response: res } = await this.client.callTool(tool, args, key);
    if (req.method !== 'GET') this.log(`${name} ${JSON.stringify(args)} -> ${res.status}${res.status >= 300 ? ` ${(res.body as { code?: string })?.code ?? ''}` : ''}`);
    return { status: res.status, body: res.body };
  }

  /** A call that must succeed: a read the policy depends on, or a write it cannot do without. */
  async must(name: string, args: Record<string, unknown> = {}, key?: string): Promise<any> {
    const res = await this.call(name, args, key);
    if (res.status >= 300) throw new Error(`${name} ${JSON.stringify(args)}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }
}
