import { join } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ErpClient } from '../http-client';
import { serveMcp } from './server';

/** The package's version, set when the bundle is built. */
declare const BB_ERP_VERSION: string | undefined;
const version = typeof BB_ERP_VERSION === 'string' ? BB_ERP_VERSION : '0.0.0';

/**
 * `erp mcp`: an MCP server on stdin and stdout for the agent signed in by ERP_URL and ERP_TOKEN,
 * the handbook taken from handbook/ of the working folder. Diagnostics go to stderr; it serves
 * until its client closes stdin. Resolves with the exit code.
 */
export async function runMcp(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Promise<number> {
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
    await serveMcp({ client, handbookDir: join(cwd, 'handbook'), version }, transport);
    return 0;
  } finally {
    client.close();
  }
}

if (require.main === module) {
  runMcp().then((code) => process.exit(code), (err: Error) => {
    process.stderr.write(`erp mcp: ${err.message}\n`);
    process.exit(1);
  });
}
