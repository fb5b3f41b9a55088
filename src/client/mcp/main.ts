import { join } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ErpClient } from '../http-client';
import { serveMcp } from './server';
import { DEFAULT_TOOL_BUDGET, parseToolBudget, type ToolBudget } from './tool-budget';

/** The package's version, set when the bundle is built. */
declare const BB_ERP_VERSION: string | undefined;
const version = typeof BB_ERP_VERSION === 'string' ? BB_ERP_VERSION : '0.0.0';

export const MCP_USAGE = 'usage: erp mcp [--tool-budget N|all]';

/**
 * The tool budget from `--tool-budget N` (or `--tool-budget=N`), else ERP_MCP_TOOL_BUDGET, else
 * DEFAULT_TOOL_BUDGET. Throws on anything else in `args`, naming it.
 */
export function toolBudgetOf(args: readonly string[], env: NodeJS.ProcessEnv): ToolBudget {
  let given: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--tool-budget' && i + 1 < args.length) given = args[++i];
    else if (a.startsWith('--tool-budget=')) given = a.slice('--tool-budget='.length);
    else throw new Error(`${a === '--tool-budget' ? '--tool-budget needs a value' : `unknown argument ${a}`}; ${MCP_USAGE}`);
  }
  if (given !== undefined) return parseToolBudget(given, '--tool-budget');
  if (env.ERP_MCP_TOOL_BUDGET) return parseToolBudget(env.ERP_MCP_TOOL_BUDGET, 'ERP_MCP_TOOL_BUDGET');
  return DEFAULT_TOOL_BUDGET;
}

/**
 * `erp mcp`: an MCP server on stdin and stdout for the agent signed in by ERP_URL and ERP_TOKEN,
 * the handbook taken from handbook/ of the working folder, offering at most the tool budget's
 * tools (`args`: `--tool-budget N|all`). Diagnostics go to stderr; it serves until its client
 * closes stdin. Resolves with the exit code.
 */
export async function runMcp(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd(), args: readonly string[] = []): Promise<number> {
  let toolBudget: ToolBudget;
  try {
    toolBudget = toolBudgetOf(args, env);
  } catch (err) {
    process.stderr.write(`erp mcp: ${(err as Error).message}\n`);
    return 2;
  }
  if (!env.ERP_URL) {
    process.stderr.write('erp mcp: ERP_URL is not set: it should hold the address of the bb-erp server, e.g. http://127.0.0.1:8080.\n');
    return 2;
  }
  const seconds = env.ERP_TIMEOUT_SECONDS ? Number(env.ERP_TIMEOUT_SECONDS) : 120;
  const client = new ErpClient({ baseUrl: env.ERP_URL, token: env.ERP_TOKEN ?? null, timeoutMs: seconds * 1000, keepAlive: true });
  try {
    const transport = new StdioServerTransport();
    // The client hung up: stdin ended. The transport alone does not notice.
    process.stdin.once('end', () => void transport.close());
    await serveMcp({ client, handbookDir: join(cwd, 'handbook'), version, toolBudget }, transport);
    return 0;
  } finally {
    client.close();
  }
}

if (require.main === module) {
  runMcp(process.env, process.cwd(), process.argv.slice(2)).then((code) => process.exit(code), (err: Error) => {
    process.stderr.write(`erp mcp: ${err.message}\n`);
    process.exit(1);
  });
}
