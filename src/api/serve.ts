import { randomBytes } from 'node:crypto';
import { issueTokens, type IssuedTokens } from '../sim/credentials';
import { startServer } from './server';

export interface ServeFlags {
  db: string;
  port?: number;
  controlPort?: number;
  host?: string;
  controlToken?: string;
  resetFrom?: string;
  /** Users to issue a token each, through the write path, for a person to play as (printed in the JSON line). */
  issueToken?: string[];
}

/**
 * `erp server start`: serves until SIGINT, SIGTERM or POST /control/shutdown, after printing one
 * JSON line with both addresses (and the control token when it was generated).
 */
export async function serve(flags: ServeFlags): Promise<void> {
  const generated = !flags.controlToken;
  const controlToken = flags.controlToken ?? randomBytes(24).toString('hex');
  const users = [...new Set(flags.issueToken ?? [])];
  let issued: IssuedTokens | undefined;
  // A reset serves a fresh copy, which has never seen the tokens: they are issued again, with the same secrets.
  const issue = (api: Parameters<typeof issueTokens>[0]) => (issued = issueTokens(api, users, 'hands-on', issued ? (u) => issued!.secrets[u]! : undefined));
  const server = await startServer({ dbFile: flags.db, port: flags.port ?? 0, controlPort: flags.controlPort ?? 0, host: flags.host ?? '127.0.0.1', controlToken, resetFrom: flags.resetFrom, ...(users.length ? { afterReset: issue } : {}) });
  if (users.length) {
    try {
      issue(server.api);
    } catch (err) {
      await server.close();
      process.stderr.write(`Error: ${(err as Error).message.replace(/^Issuing/, 'Could not issue')} The users are those of the served file (GET /users as its administrator, or world.json beside a scenario).\n`);
      process.exitCode = 1;
      return;
    }
  }
  process.stdout.write(JSON.stringify({
    agent_url: server.url, control_url: server.controlUrl, business_date: server.api.today(), ...(generated ? { control_token: controlToken } : {}),
    ...(issued ? { tokens: issued.secrets } : {}),
  }) + '\n');
  const stop = () => void server.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await server.closed;
}

const VALUE_FLAGS: Record<string, Exclude<keyof ServeFlags, 'issueToken'>> = { '--db': 'db', '--port': 'port', '--control-port': 'controlPort', '--host': 'host', '--control-token': 'controlToken', '--reset-from': 'resetFrom' };
const PORTS = new Set<keyof ServeFlags>(['port', 'controlPort']);

/**
 * The flags of `erp server start` when they are plain (`--flag value` or `--flag=value`, known
 * flags, ports as integers, --db given); undefined otherwise, and oclif parses them with its errors.
 * The runner starts a server per attempt, so its start skips oclif's.
 */
export function plainServeFlags(argv: readonly string[]): ServeFlags | undefined {
  const flags: Partial<Record<Exclude<keyof ServeFlags, 'issueToken'>, string | number>> & { issueToken?: string[] } = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const key = VALUE_FLAGS[name];
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (name === '--issue-token') {
      if (value === undefined || value === '') return undefined;
      (flags.issueToken ??= []).push(value);
      continue;
    }
    if (!key || value === undefined || key in flags) return undefined;
    if (PORTS.has(key)) {
      if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) return undefined;
      flags[key] = Number(value);
    } else flags[key] = value;
  }
  if (typeof flags.db !== 'string') return undefined;
  flags.controlToken ??= process.env.ERP_CONTROL_TOKEN || undefined;
  return flags as ServeFlags;
}
