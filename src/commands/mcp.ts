import { existsSync } from 'node:fs';
import { Command } from '@oclif/core';
import { bundlePath } from '../runner/client-bundle';

export default class Mcp extends Command {
  static override summary = 'Serve MCP on stdin and stdout: your tools (the endpoints your roles may call) and the handbook as resources.';
  static override description = "ERP_URL and ERP_TOKEN sign it in, as for every agent command; the handbook is read from handbook/ of the working folder. Each tool is one tool of GET /tools.json, called with the same HTTP request erp call makes; a refused call is a tool error holding the problem. Point an MCP client at the command `erp mcp`.";
  static override examples = ['<%= config.bin %> mcp', `claude mcp add erp -- erp mcp`];

  async run(): Promise<void> {
    await this.parse(Mcp);
    const file = bundlePath('mcp');
    if (!existsSync(file)) this.error(`The MCP server ${file} is missing: run npm run build.`, { exit: 2 });
    const mcp = require(file) as typeof import('../client/mcp/main');
    process.exitCode = await mcp.runMcp();
  }
}
