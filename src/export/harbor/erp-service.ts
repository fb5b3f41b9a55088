import { randomBytes, timingSafeEqual } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { playAttempt, type AttemptOutcome } from '../../runner/attempt-play';
import type { ProcessOutcome } from '../../runner/process-agent';
import { newSecret } from '../../sim/credentials';
import type { TurnInfo } from '../../task-pack/code';
import { dayFile, HARBOR, type DayClosed, type ServiceConfig } from './layout';

/**
 * The ERP service of an exported Harbor task. `serve` runs one attempt with the runner's own code
 * (playAttempt with an external agent): the scenario reset with fresh tokens (the agent's is the
 * one `main` holds), the agent port on the compose network, the clock advanced to the first
 * turn. Each turn waits for Harbor's collect hook after the step's agent (`close-day N`), which
 * ends the turn, advances the clock to the next turn's date (the counterparties act) and, after
 * the last, to the grading date, settles the database and leaves the attempt in evidence/ for
 * the verifier. The control port and the hook port listen on the service's loopback only.
 */

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** What an agent turn the service cannot see records: the step ran outside, its outcome is Harbor's. */
function outsideOutcome(startedNs: bigint): ProcessOutcome {
  return { exit_code: null, signal: null, timed_out: false, duration_s: Number(process.hrtime.bigint() - startedNs) / 1e9 };
}

/** Copies what the verifier grades: the attempt folder without the service's empty workspace (the agent's comes from `main`). */
function writeAttemptEvidence(attemptDir: string, evidenceDir: string): void {
  const target = join(evidenceDir, 'attempt');
  rmSync(target, { recursive: true, force: true });
  cpSync(attemptDir, target, { recursive: true, filter: (src) => src !== join(attemptDir, 'workspace') });
}

export interface ServiceOptions {
  config: ServiceConfig;
  scenarioDir: string;
  attemptDir?: string;
  runDir?: string;
  evidenceDir?: string;
  agentPort?: number;
  hookPort?: number;
  log?: (line: string) => void;
}

export interface RunningService {
  /** Resolves when the attempt has ended (settled after the last turn, or failed). */
  finished: Promise<AttemptOutcome | Error>;
  hookUrl: string;
  hookToken: string;
  close(): Promise<void>;
}

/** Starts the attempt and the hook port; resolves once the first turn is open (the service is ready). */
export async function startService(o: ServiceOptions): Promise<RunningService> {
  const c = o.config;
  const attemptDir = o.attemptDir ?? HARBOR.attemptDir;
  const runDir = o.runDir ?? HARBOR.runDir;
  const evidenceDir = o.evidenceDir ?? HARBOR.evidenceDir;
  const log = o.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const turns = c.pack.spec.turns;
  mkdirSync(runDir, { recursive: true });
  mkdirSync(evidenceDir, { recursive: true });

  const began = turns.map(() => deferred<void>());
  const ends = turns.map(() => deferred<ProcessOutcome>());
  const startedAt: bigint[] = [];
  const externalTurn = (turn: TurnInfo): Promise<ProcessOutcome> => {
    startedAt[turn.index - 1] = process.hrtime.bigint();
    began[turn.index - 1]!.resolve();
    log(`turn ${turn.index}/${turns.length} open on ${turn.date}`);
    return ends[turn.index - 1]!.promise;
  };
  const finished: Promise<AttemptOutcome | Error> = playAttempt({
    pack: c.pack, packHash: c.pack_hash, scenarioDir: o.scenarioDir, seed: c.seed,
    agent: { kind: 'external', name: 'harbor' }, externalTurn, attemptDir, label: c.label, rep: 1,
    faults: c.faults ?? undefined, log,
    agentListen: { host: '0.0.0.0', port: o.agentPort ?? HARBOR.agentPort },
    referenceDigest: c.reference_digest,
    secretFor: (user) => (user === c.pack.spec.agent_user ? c.agent_token : newSecret()),
  }).then(
    (outcome) => {
      writeAttemptEvidence(attemptDir, evidenceDir);
      return outcome;
    },
    (err: Error) => err,
  );
  const first = await Promise.race([began[0]!.promise.then(() => undefined), finished]);
  if (first !== undefined) throw first instanceof Error ? first : new Error(`The attempt ended before its first turn: ${first.record.run_error ?? 'no reason recorded'}.`);

  const hookToken = randomBytes(24).toString('hex');
  const closeDay = async (turn: number): Promise<DayClosed> => {
    const end = ends[turn - 1];
    if (!end || startedAt[turn - 1] === undefined) return { turn, closed: false, business_date: '', error: `Turn ${turn} is not open (the attempt has ${turns.length}).` };
    end.resolve(outsideOutcome(startedAt[turn - 1]!));
    const next = turn < turns.length ? began[turn]!.promise.then(() => undefined) : new Promise<never>(() => undefined);
    const after = await Promise.race([next, finished]);
    if (after instanceof Error) return { turn, closed: false, business_date: '', error: after.message };
    if (after && (after.record.run_error || after.record.incomplete)) return { turn, closed: false, business_date: '', error: after.record.run_error ?? after.record.incomplete };
    return { turn, closed: true, business_date: turn < turns.length ? turns[turn]!.date : c.pack.spec.grading_date };
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body) + '\n');
    };
    const given = Buffer.from(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '');
    const want = Buffer.from(hookToken);
    if (given.length !== want.length || !timingSafeEqual(given, want)) return reply(401, { error: 'The hook token is missing or wrong.' });
    const m = /^\/close-day\/(\d+)$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !m) return reply(404, { error: 'The hook port serves POST /close-day/<turn> only.' });
    const turn = Number(m[1]);
    closeDay(turn).then(
      (day) => {
        writeFileSync(join(evidenceDir, dayFile(turn)), JSON.stringify(day, null, 2) + '\n');
        log(day.closed ? `day ${turn} closed; the business date is ${day.business_date}` : `day ${turn} did not close: ${day.error}`);
        reply(day.closed ? 200 : 409, day);
      },
      (err: Error) => reply(500, { error: err.message }),
    );
  });
  const hookPort = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.hookPort ?? HARBOR.hookPort, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
  writeFileSync(join(runDir, 'hook.json'), JSON.stringify({ url: `http://127.0.0.1:${hookPort}`, token: hookToken }) + '\n', { mode: 0o600 });
  writeFileSync(join(runDir, 'ready'), '');
  return {
    finished, hookUrl: `http://127.0.0.1:${hookPort}`, hookToken,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** `close-day N`, run by Harbor's collect hook inside the service: asks the serving process to close turn N's day. */
export function requestCloseDay(turn: number, runDir: string = HARBOR.runDir): Promise<{ status: number; body: string }> {
  const hook = JSON.parse(readFileSync(join(runDir, 'hook.json'), 'utf8')) as { url: string; token: string };
  return new Promise((resolve, reject) => {
    const req = request(`${hook.url}/close-day/${turn}`, { method: 'POST', headers: { authorization: `Bearer ${hook.token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** `--name value` options after the command's own arguments: the containers use the defaults, a test its own folders. */
function options(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i]!.startsWith('--') || argv[i + 1] === undefined) throw new Error(`Expected --name value pairs, not ${argv.slice(i).join(' ')}.`);
    out[argv[i]!.slice(2)] = argv[i + 1]!;
  }
  return out;
}

const USAGE = 'usage: erp-service.cjs serve [HOME] [--attempt DIR] [--run DIR] [--evidence DIR] [--port N] [--hook-port N] | close-day <turn> [--run DIR]\n';

/** The program's command line (bundles.ts makes it the bundle's entry); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'serve') {
    const home = rest[0] && !rest[0].startsWith('--') ? rest.shift()! : HARBOR.erpHome;
    const opt = options(rest);
    const config = JSON.parse(readFileSync(join(home, 'service.json'), 'utf8')) as ServiceConfig;
    const service = await startService({
      config, scenarioDir: join(home, 'scenario'), attemptDir: opt.attempt, runDir: opt.run, evidenceDir: opt.evidence,
      agentPort: opt.port === undefined ? undefined : Number(opt.port), hookPort: opt['hook-port'] === undefined ? undefined : Number(opt['hook-port']),
    });
    const ended = await service.finished;
    if (ended instanceof Error) process.stderr.write(`The attempt failed: ${ended.message}\n`);
    // The service stays up after the attempt: the last collect hook and Harbor's artifact copy come after.
    return new Promise<number>(() => undefined);
  }
  if (command === 'close-day' && rest[0] && /^\d+$/.test(rest[0])) {
    const runDir = options(rest.slice(1)).run ?? HARBOR.runDir;
    if (!existsSync(join(runDir, 'hook.json'))) {
      process.stderr.write('The ERP service is not serving: no hook.json.\n');
      return 2;
    }
    const { status, body } = await requestCloseDay(Number(rest[0]), runDir);
    process.stdout.write(body);
    return status === 200 ? 0 : 1;
  }
  process.stderr.write(USAGE);
  return 2;
}
