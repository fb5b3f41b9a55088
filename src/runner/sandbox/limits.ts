/**
 * What one sandboxed turn may use, declared in the attempt's condition.json. Every limit ends the
 * turn when reached, with its name recorded as the turn's `limit`.
 */
export interface TurnLimits {
  /** Bytes on disk of the workspace and the turn's HOME together. */
  workspace_bytes: number;
  /** Bytes of stdout, and of stderr, kept; the rest is counted. */
  output_bytes: number;
  /** Processes and threads alive at once. */
  processes: number;
  /** Resident memory of every process of the turn together, page cache and /tmp included. */
  memory_bytes: number;
  /** CPU time of every process of the turn together. */
  cpu_seconds: number;
}

export type LimitName = 'workspace' | 'stdout' | 'stderr' | 'processes' | 'memory' | 'cpu';

const MIB = 1024 * 1024;

export const DEFAULT_LIMITS: Readonly<TurnLimits> = {
  workspace_bytes: 256 * MIB,
  output_bytes: 8 * MIB,
  processes: 512,
  memory_bytes: 4096 * MIB,
  cpu_seconds: 1200,
};

/** The `--limit` keys and the field each sets. */
const KEYS: Readonly<Record<string, keyof TurnLimits>> = {
  workspace: 'workspace_bytes', output: 'output_bytes', processes: 'processes', memory: 'memory_bytes', cpu: 'cpu_seconds',
};
const BYTE_FIELDS: ReadonlySet<keyof TurnLimits> = new Set(['workspace_bytes', 'output_bytes', 'memory_bytes']);
const UNITS: Readonly<Record<string, number>> = { '': 1, k: 1024, m: MIB, g: 1024 * MIB };

/** A byte count as an operator writes it: `512`, `64k`, `256M`, `4G` (powers of 1024). */
export function parseBytes(text: string): number | undefined {
  const m = /^(\d+)([kmg]?)i?b?$/i.exec(text.trim());
  if (!m) return undefined;
  return Number(m[1]) * UNITS[m[2]!.toLowerCase()]!;
}

/**
 * The limits from `--limit KEY=VALUE` flags over the defaults: workspace, output and memory in
 * bytes (k, M, G suffixes), processes a count, cpu in seconds.
 */
export function limitsFrom(flags: readonly string[] = [], base: Readonly<TurnLimits> = DEFAULT_LIMITS): TurnLimits {
  const limits = { ...base };
  for (const flag of flags) {
    const eq = flag.indexOf('=');
    const field = KEYS[eq < 0 ? flag : flag.slice(0, eq)];
    if (!field || eq < 0) throw new Error(`--limit ${flag}: write KEY=VALUE with KEY one of ${Object.keys(KEYS).join(', ')}.`);
    const text = flag.slice(eq + 1);
    const value = BYTE_FIELDS.has(field) ? parseBytes(text) : /^\d+$/.test(text) ? Number(text) : undefined;
    if (value === undefined || value <= 0) throw new Error(`--limit ${flag}: ${BYTE_FIELDS.has(field) ? 'a positive byte count such as 256M' : 'a positive whole number'}.`);
    limits[field] = value;
  }
  return limits;
}

/** One sentence saying what a turn that reached a limit did. */
export function limitSentence(name: LimitName, limits: TurnLimits): string {
  const mib = (n: number) => `${Math.round((n / MIB) * 10) / 10} MiB`;
  switch (name) {
    case 'workspace': return `The workspace and HOME reached ${mib(limits.workspace_bytes)} on disk.`;
    case 'stdout': return `The agent wrote more than ${mib(limits.output_bytes)} to stdout; the first ${mib(limits.output_bytes)} are kept.`;
    case 'stderr': return `The agent wrote more than ${mib(limits.output_bytes)} to stderr; the first ${mib(limits.output_bytes)} are kept.`;
    case 'processes': return `The turn tried to run more than ${limits.processes} processes at once.`;
    case 'memory': return `The turn's processes needed more than ${mib(limits.memory_bytes)} of memory; the kernel ended one.`;
    case 'cpu': return `The turn's processes used more than ${limits.cpu_seconds} s of CPU time.`;
    default: {
      const never: never = name;
      return never;
    }
  }
}
