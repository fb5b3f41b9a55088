import { attachmentOutcome, docsOutcome, failure, readMessageOutcome, requestOutcome, toolCallOutcome, writeBody, type CliOutcome } from './agent-cli';
import { normalisePath, parsePairs } from './cli-args';
import { writeStdout } from './stdout';

/**
 * Agents call the CLI hundreds of times a turn, so the agent commands skip oclif's start-up when
 * their arguments are plain: same functions, same output. Anything else (help, an unknown flag, a
 * wrong number of arguments) returns undefined and oclif handles it, with its usage errors.
 */
type Parsed = { flags: Record<string, string | true>; positionals: string[] };

function parse(argv: readonly string[], valueFlags: Record<string, string>, boolFlags: Record<string, string> = {}): Parsed | undefined {
  const flags: Record<string, string | true> = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return undefined;
    if (arg.startsWith('-')) {
      const [name, inline] = arg.includes('=') && arg.startsWith('--') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
      if (valueFlags[name]) {
        const value = inline ?? argv[++i];
        if (value === undefined) return undefined;
        flags[valueFlags[name]] = value;
      } else if (boolFlags[name] && inline === undefined) {
        flags[boolFlags[name]] = true;
      } else {
        return undefined;
      }
    } else {
      positionals.push(arg);
    }
  }
  return { flags, positionals };
}

const WRITE_METHODS: Record<string, 'POST' | 'PATCH' | 'PUT' | 'DELETE'> = { post: 'POST', patch: 'PATCH', put: 'PUT', delete: 'DELETE' };

/** What the operator's erp can do that the agent's bundled client cannot. */
export interface FastPathExtras {
  /** The API reference built without a server, for `erp docs` where ERP_URL is not set. */
  offlineDocs?: () => object;
}

function plan(all: readonly string[], extras: FastPathExtras): (() => Promise<CliOutcome>) | undefined {
  // Agent commands print JSON already; --json is accepted and, for docs, asks for data instead of text.
  const json = all.includes('--json');
  const argv = all.filter((a) => a !== '--json');
  const [command, ...rest] = argv;
  if (!command) return undefined;
  if (command === 'whoami') return rest.length === 0 ? () => requestOutcome('GET', '/whoami', {}) : undefined;
  if (command === 'docs') {
    const p = parse(rest, {});
    return p && p.positionals.length <= 1 ? () => docsOutcome(p.positionals[0], json, extras.offlineDocs) : undefined;
  }
  if (command === 'get' || command === 'report') {
    const p = parse(rest, {});
    if (!p || p.positionals.length < 1 || p.positionals.slice(1).some((a) => !a.includes('=') || a.startsWith('='))) return undefined;
    const path = command === 'get' ? normalisePath(p.positionals[0]!) : `/reports/${encodeURIComponent(p.positionals[0]!)}`;
    return () => requestOutcome('GET', path, { query: parsePairs(p.positionals.slice(1), false) as Record<string, string> });
  }
  if (WRITE_METHODS[command]) {
    const p = parse(rest, { '--data': 'data', '-d': 'data', '--key': 'key', '-k': 'key' });
    if (!p || p.positionals.length < 1 || p.positionals.slice(1).some((a) => !a.includes('=') || a.startsWith('='))) return undefined;
    return async () => {
      try {
        const body = writeBody(p.flags.data as string | undefined, parsePairs(p.positionals.slice(1), true));
        return await requestOutcome(WRITE_METHODS[command]!, normalisePath(p.positionals[0]!), { body, idempotencyKey: p.flags.key as string | undefined });
      } catch (err) {
        return failure(err);
      }
    };
  }
  if (command === 'call') {
    const p = parse(rest, { '--data': 'data', '-d': 'data', '--key': 'key', '-k': 'key' });
    if (!p || p.positionals.slice(1).some((a) => !a.includes('=') || a.startsWith('='))) return undefined;
    if (p.positionals.length === 0 && Object.keys(p.flags).length > 0) return undefined;
    return () => toolCallOutcome(p.positionals[0], p.positionals.slice(1), { data: p.flags.data as string | undefined, key: p.flags.key as string | undefined });
  }
  if (command === 'inbox') {
    const p = parse(rest, { '--box': 'box', '-b': 'box', '--since': 'since', '--sort': 'sort', '--offset': 'offset', '--limit': 'limit' }, { '--unread': 'unread' });
    if (!p || p.positionals.length > 0) return undefined;
    for (const f of ['offset', 'limit'] as const) if (p.flags[f] !== undefined && !/^\d+$/.test(p.flags[f] as string)) return undefined;
    const text = (f: string) => p.flags[f] as string | undefined;
    return () => requestOutcome('GET', '/inbox', { query: { box: text('box'), unread: p.flags.unread ? 'true' : undefined, since: text('since'), sort: text('sort'), offset: text('offset'), limit: text('limit') } });
  }
  if (command === 'read') {
    const p = parse(rest, {});
    return p && p.positionals.length === 1 ? () => readMessageOutcome(p.positionals[0]!) : undefined;
  }
  if (command === 'attachment') {
    const p = parse(rest, { '--output': 'output', '-o': 'output' });
    if (!p || p.positionals.length !== 2 || !/^[1-9]\d*$/.test(p.positionals[1]!)) return undefined;
    return () => attachmentOutcome(p.positionals[0]!, Number(p.positionals[1]), p.flags.output as string | undefined);
  }
  return undefined;
}

/** Runs an agent command without oclif when it can; false when oclif should take it. */
export async function runFast(argv: readonly string[], extras: FastPathExtras = {}): Promise<boolean> {
  const run = plan(argv, extras);
  if (!run) return false;
  const outcome = await run();
  writeStdout(outcome.output);
  if (outcome.exitCode !== 0) process.exitCode = outcome.exitCode;
  return true;
}
