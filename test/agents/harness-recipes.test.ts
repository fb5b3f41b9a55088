import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { benchRun } from '../../src/runner/bench-run';
import { openDatabase } from '../../src/events/database';
import { fakeModel, TOKENS_IN, TOKENS_OUT, type Script, type Seen } from '../support/fake-model';

/**
 * The recipes of agents/ run as documented, in the sandbox, with a stub of each harness's binary:
 * the stub checks the command line and the seeded config the recipe gave it, reads the prompt,
 * calls erp like the harness would, and prints a usage line the way the real CLI does.
 */
const TASKS = join(__dirname, '..', 'fixtures', 'tasks');
const AGENTS = resolve(__dirname, '..', '..', 'agents');
const root = mkdtempSync(join(tmpdir(), 'bb-erp-recipes-'));

/** A stub that fails loudly when a condition does not hold, else schedules Maya Chen's leave through erp. */
function stub(name: string, checks: string[], usageLine: string): string {
  const dir = mkdtempSync(join(root, `${name}-`));
  const file = join(dir, name);
  writeFileSync(file, [
    '#!/bin/sh',
    'set -eu',
    'fail() { echo "stub: $1" >&2; exit 9; }',
    ...checks,
    'erp whoami >/dev/null',
    'erp call leave_schedule user=maya.chen start_date=2026-10-12 end_date=2026-10-16 delegate=grace.lin --key stub-maya >/dev/null',
    `echo '${usageLine}'`,
    '',
  ].join('\n'));
  chmodSync(file, 0o755);
  return file;
}

const RECIPES = [
  {
    recipe: 'claude-code', binVar: 'CLAUDE_BIN', keyVar: 'ANTHROPIC_API_KEY',
    bin: () => stub('claude', [
      '[ "$1" = -p ] || fail "not print mode"',
      'echo "$*" | grep -q -- "--mcp-config" || fail "no MCP config"',
      '[ -f "$HOME/.claude/settings.json" ] || fail "HOME not seeded"',
      'echo "$*" | grep -q "Request from" || fail "no prompt"',
      '[ "${ANTHROPIC_API_KEY:-}" = test-key ] || fail "no API key"',
    ], '{"type":"result","subtype":"success","usage":{"input_tokens":1200,"output_tokens":80},"total_cost_usd":0.0048}'),
    usage: '"total_cost_usd":0.0048',
    // Two turns, one result each.
    recorded: { model_calls: 2, tokens_in: 2400, tokens_out: 160, cost_usd: 0.0096 },
  },
  {
    recipe: 'codex', binVar: 'CODEX_BIN', keyVar: 'OPENAI_API_KEY',
    bin: () => stub('codex', [
      '[ "$1" = exec ] || fail "not exec"',
      'grep -q "mcp_servers.erp" "$HOME/.codex/config.toml" || fail "HOME not seeded"',
      'cat | grep -q "Request from" || fail "no prompt on stdin"',
      '[ "${OPENAI_API_KEY:-}" = test-key ] || fail "no API key"',
    ], '{"type":"turn.completed","usage":{"input_tokens":900,"cached_input_tokens":0,"output_tokens":60}}'),
    usage: '"type":"turn.completed"',
    // Codex reports no cost.
    recorded: { model_calls: 2, tokens_in: 1800, tokens_out: 120, cost_usd: null },
  },
];

describe.each(RECIPES)('the $recipe recipe', ({ recipe, binVar, keyVar, bin, usage, recorded }) => {
  let dir: string;

  beforeAll(async () => {
    const binary = bin();
    process.env[binVar] = binary;
    process.env[keyVar] = 'test-key';
    try {
      const run = await benchRun({
        task: 'leave-cover', tasksDir: TASKS, agent: `cmd:sh ${join(AGENTS, recipe, 'run.sh')}`, agentName: recipe, model: 'stub',
        label: recipe, runsDir: join(root, 'runs'), scenarioDir: join(root, 'scenario'),
        passEnv: [binVar, keyVar], agentFiles: [join(AGENTS, recipe), binary],
      });
      dir = run.attempts[0]!.dir;
    } finally {
      delete process.env[binVar];
      delete process.env[keyVar];
    }
  }, 180_000);

  it('runs the harness each turn with its seeded HOME, the prompt and the passed key, in the sandbox', () => {
    const attempt = JSON.parse(readFileSync(join(dir, 'attempt.json'), 'utf8'));
    expect(attempt.isolation).toBe('bwrap');
    expect(attempt.turns.map((t: { exit_code: number }) => t.exit_code)).toEqual([0, 0]);
    expect(readFileSync(join(dir, 'turns', '1', 'stderr.txt'), 'utf8')).not.toContain('stub:');
  });

  it("reaches the ERP through erp as the agent: the harness's write is in the event log", () => {
    const db = openDatabase(join(dir, 'final.db'), { readonly: true });
    try {
      expect(db.prepare("SELECT actor, outcome FROM events WHERE idempotency_key = 'stub-maya' ORDER BY seq LIMIT 1").get()).toEqual({ actor: 'olga.park', outcome: 'ok' });
    } finally {
      db.close();
    }
  });

  it("leaves the harness's usage line in the turn's stdout, outside the workspace", () => {
    expect(readFileSync(join(dir, 'turns', '1', 'stdout.txt'), 'utf8')).toContain(usage);
  });

  it("reads the harness's usage back into result.json as self-reported, per turn and for the attempt, and never as measured", () => {
    const result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as { usage?: unknown; reported_usage?: unknown; turns: { usage?: unknown; reported_usage?: { model_calls: number } }[] };
    expect(result.reported_usage).toEqual(recorded);
    expect(result.turns.map((t) => t.reported_usage?.model_calls)).toEqual([1, 1]);
    expect([result.usage, ...result.turns.map((t) => t.usage)]).toEqual([undefined, undefined, undefined]);
  });
});

describe('the python-loop recipe against a scripted endpoint', () => {
  const script: Script = {
    1: [
      { name: 'get_whoami', arguments: {} },
      { name: 'leave_schedule', arguments: { user: 'maya.chen', start_date: '2026-10-12', end_date: '2026-10-16', delegate: 'grace.lin', idempotency_key: 'py-maya' } },
      { name: 'leave_schedule', arguments: { user: 'nobody.here', start_date: '2026-10-12', end_date: '2026-10-16' } },
    ],
    2: [],
  };
  let dir: string;
  let seen: Seen[];

  beforeAll(async () => {
    const model = await fakeModel(script);
    seen = model.seen;
    Object.assign(process.env, { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'test-key', MODEL: 'scripted-model' });
    try {
      const run = await benchRun({
        task: 'leave-cover', tasksDir: TASKS, agent: `cmd:python3 ${join(AGENTS, 'python-loop', 'agent.py')}`, agentName: 'python-loop', model: 'scripted-model',
        label: 'python-loop', runsDir: join(root, 'runs'), scenarioDir: join(root, 'scenario'),
        passEnv: ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'MODEL'], agentFiles: [join(AGENTS, 'python-loop')],
        // The scripted endpoint is on the host's loopback: the sandbox reaches it only through its egress proxy.
        netAllow: [new URL(model.url).host],
      });
      dir = run.attempts[0]!.dir;
    } finally {
      model.server.close();
      for (const k of ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'MODEL']) delete process.env[k];
    }
  }, 180_000);

  it('offers the model the tools of /tools.json and makes its calls through erp call, as the agent', () => {
    expect(seen[0]!.toolNames).toEqual(expect.arrayContaining(['get_whoami', 'leave_schedule']));
    expect(seen[0]!.authorization).toBe('Bearer test-key');
    const db = openDatabase(join(dir, 'final.db'), { readonly: true });
    try {
      expect(db.prepare("SELECT actor, outcome FROM events WHERE idempotency_key = 'py-maya'").get()).toEqual({ actor: 'olga.park', outcome: 'ok' });
    } finally {
      db.close();
    }
  });

  it('hands a refusal back to the model as an error, and writes one usage line per request', () => {
    const lastOfTurn1 = seen.filter((s) => s.turn === 1).at(-1)!;
    expect(lastOfTurn1.toolResults.at(-1)).toMatch(/^ERROR: /);
    const lines = readFileSync(join(dir, 'turns', '1', 'stdout.txt'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.type === 'model_call')).toHaveLength(script[1].length + 1);
    expect(lines.filter((l) => l.type === 'model_call').every((l) => l.tokens_in === TOKENS_IN && l.tokens_out === TOKENS_OUT)).toBe(true);
    expect(lines.at(-1)).toEqual({ type: 'end', reason: 'answered', steps: script[1].length + 1 });
  });
});
