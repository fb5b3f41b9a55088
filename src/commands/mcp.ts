import { existsSync } from 'node:fs';
import { Command, Flags } from '@oclif/core';
import { bundlePath } from '../runner/client-bundle';

export default class Mcp extends Command {
  static override summary = 'Serve MCP on stdin and stdout: your tools (the endpoints your roles may call, at most the tool budget) and the handbook as resources.';
  static override description = "ERP_URL and ERP_TOKEN sign it in, as for every agent command; the handbook is read from handbook/ of the working folder. Each tool is one tool of GET /tools.json, called with the same HTTP request erp call makes; a refused call is a tool error holding the problem. When you may call more endpoints than the tool budget, it offers four generic tools (erp_get any path you may read, erp_post any action you may call, erp_find_tools, erp_describe_tool) and, for the rest of the budget, your role's own endpoints first (see docs/agents.md). Point an MCP client at the command `erp mcp`.";
  static override examples = ['<%= config.bin %> mcp', '<%= config.bin %> mcp --tool-budget 32', `claude mcp add erp -- erp mcp`];
  static override flags = {
    'tool-budget': Flags.string({ description: "at most this many tools, 4 or more, or 'all' for one tool per endpoint (default: ERP_MCP_TOOL_BUDGET, else 64)" }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Mcp);
    const file = bundlePath('mcp');
    if (!existsSync(file)) this.error(`The MCP server ${file} is missing: run npm run build.`, { exit: 2 });
    const mcp = require(file) as typeof import('../client/mcp/main');
    process.exitCode = await mcp.runMcp(process.env, process.cwd(), flags['tool-budget'] === undefined ? [] : ['--tool-budget', flags['tool-budget']]);
  }
}
