import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { DEFAULT_TOOL_BUDGET, GENERIC_TOOL_COUNT, NO_BUDGET, parseToolBudget, type ToolBudget } from '../../client/mcp/tool-budget';
import type { ToolSpec } from './apis';

export interface ToolOutcome {
  text: string;
  isError: boolean;
}

/** What the agent works with: the ERP's tools, the handbook, and one tool of its own for files. */
export interface AgentTools {
  tools: ToolSpec[];
  handbook: { uri: string; text: string }[];
  call(name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  close(): Promise<void>;
}

/** The agent's own tool: notes and hand-offs the handbook asks for are files of the workspace. */
export const WRITE_FILE = 'write_workspace_file';

const writeFileTool: ToolSpec = {
  name: WRITE_FILE,
  description: 'Write a text file in your working folder (a note or hand-off the handbook asks for); replaces the file if it exists.',
  parameters: { type: 'object', properties: { path: { type: 'string', description: 'relative to the working folder, e.g. handoff.md' }, content: { type: 'string' } }, required: ['path', 'content'], additionalProperties: false },
};

function writeWorkspaceFile(workspace: string, args: Record<string, unknown>): ToolOutcome {
  const path = typeof args.path === 'string' ? normalize(args.path) : '';
  if (!path || isAbsolute(path) || path.startsWith('..') || path.split(sep).includes('..')) return { text: `path must be a relative path inside the working folder, not ${JSON.stringify(args.path)}`, isError: true };
  if (typeof args.content !== 'string') return { text: 'content must be text', isError: true };
  const file = join(workspace, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, args.content);
  return { text: `wrote ${path} (${Buffer.byteLength(args.content)} bytes)`, isError: false };
}

/** The agent's own tools, which its budget counts beside the ERP's. */
const OWN_TOOLS = 1;

/**
 * The budget `erp mcp` gets when the agent may send `budget` tools per request: its own tools
 * take their share. ERP_MCP_TOOL_BUDGET (set by the runner) gives the agent's budget.
 */
export function erpToolBudget(env: NodeJS.ProcessEnv): ToolBudget {
  const budget = env.ERP_MCP_TOOL_BUDGET ? parseToolBudget(env.ERP_MCP_TOOL_BUDGET, 'ERP_MCP_TOOL_BUDGET', GENERIC_TOOL_COUNT + OWN_TOOLS) : DEFAULT_TOOL_BUDGET;
  return budget === NO_BUDGET ? NO_BUDGET : budget - OWN_TOOLS;
}

/**
 * The tools through `erp mcp` (the `erp` on PATH, as any harness would start it), read with the
 * MCP SDK's client: the server's tool list and handbook resources, each call a tools/call. The
 * ERP's tools and the agent's own together are at most the budget of ERP_MCP_TOOL_BUDGET.
 */
export async function mcpTools(workspace: string, env: NodeJS.ProcessEnv): Promise<AgentTools> {
  const client = new Client({ name: 'bb-erp-llm', version: '1.0.0' });
  const serverEnv = { ...env, ERP_MCP_TOOL_BUDGET: String(erpToolBudget(env)) } as Record<string, string>;
  await client.connect(new StdioClientTransport({ command: 'erp', args: ['mcp'], cwd: workspace, env: serverEnv, stderr: 'inherit' }));
  const listed = (await client.listTools()).tools;
  const resources = (await client.listResources()).resources;
  const handbook: AgentTools['handbook'] = [];
  for (const r of resources) {
    const content = (await client.readResource({ uri: r.uri })).contents[0] as { text?: string } | undefined;
    handbook.push({ uri: r.uri, text: content?.text ?? '' });
  }
  const tools: ToolSpec[] = listed.map((t) => ({ name: t.name, description: t.description ?? t.name, parameters: t.inputSchema as Record<string, unknown> }));
  return {
    tools: [...tools, writeFileTool],
    handbook,
    async call(name, args) {
      if (name === WRITE_FILE) return writeWorkspaceFile(workspace, args);
      if (!listed.some((t) => t.name === name)) return { text: `There is no tool ${name}.`, isError: true };
      const res = await client.callTool({ name, arguments: args });
      const text = (res.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
      return { text, isError: res.isError === true };
    },
    close: () => client.close(),
  };
}
