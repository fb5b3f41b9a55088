import { join } from 'node:path';
import { runFast } from './fast-path';
import { writeStdout } from './stdout';

/** The MCP server's bundle beside this one: loaded only by `erp mcp`, so the other commands start as fast as before. */
export const MCP_BUNDLE_FILE = 'erp-mcp.cjs';

/**
 * The entry of the self-contained agent client (dist/erp-client.cjs, bundled at build): the agent
 * commands and nothing else of the package. Without oclif, its help is this page.
 */
const USAGE = `erp: the bb-erp agent client. ERP_URL and ERP_TOKEN come from the environment; output is JSON.

  erp whoami                                  who you are signed in as: roles, limits, business date
  erp docs [WORD]                             the API's endpoints, and handbook paragraphs mentioning WORD
  erp get PATH [k=v ...]                      GET an API path; pairs become the query
  erp post PATH [--data JSON|@file] [--key K] [k=v ...]
                                              POST a named action; values parse as JSON when they can
  erp patch|put|delete PATH ...               the same for the other methods
  erp inbox [--box B] [--unread] [--offset N] [--limit N]
  erp read MSG                                read a message (marks it read)
  erp attachment MSG N [-o FILE]              attachment N of a message
  erp report ID [k=v ...]                     a report of /reports
  erp call [TOOL name=value ... [--data JSON] [--key K]]
                                              a tool of /tools.json; alone, the list of tools
  erp mcp [--tool-budget N|all]               an MCP server on stdio: your tools (at most N, default 64, or
                                              ERP_MCP_TOOL_BUDGET), and the handbook as resources

Send --key with a unique value on every write, so that a retry cannot act twice.
`;

export async function main(argv: readonly string[]): Promise<void> {
  if (argv[0] === 'mcp' && !argv.includes('--help')) {
    const mcp = require(join(__dirname, MCP_BUNDLE_FILE)) as typeof import('./mcp/main');
    process.exitCode = await mcp.runMcp(process.env, process.cwd(), argv.slice(1));
    return;
  }
  if (await runFast(argv)) return;
  if (argv.length === 0 || ['help', '--help', '-h'].includes(argv[0]!) || argv.includes('--help')) {
    writeStdout(USAGE);
    return;
  }
  writeStdout(JSON.stringify({ code: 'usage', detail: `Not an agent command or not its arguments: erp ${argv.join(' ')}. Run erp --help for the list.` }, null, 2) + '\n');
  process.exitCode = 2;
}

void main(process.argv.slice(2));
