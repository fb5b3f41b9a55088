import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LimitName, TurnLimits } from './limits';

/** Which controllers a turn's cgroup holds, and where each lives. */
export interface CgroupPlan {
  version: 'v2' | 'v1' | 'none';
  /** The folder under which a turn's cgroup is made, per controller (v2: one folder for all). */
  memory?: string;
  pids?: string;
  cpu?: string;
}

interface Mount { dir: string; type: string; options: string[] }

function mounts(): Mount[] {
  return readFileSync('/proc/self/mounts', 'utf8').trim().split('\n').map((l) => l.split(' ')).map((f) => ({ dir: f[1]!.replace(/\\040/g, ' '), type: f[2]!, options: (f[3] ?? '').split(',') }));
}

/** This process's own cgroup per hierarchy: '' for the v2 one, the controller list for v1 ones. */
function ownCgroups(): Map<string, string> {
  const own = new Map<string, string>();
  for (const line of readFileSync('/proc/self/cgroup', 'utf8').trim().split('\n')) {
    const [, controllers, path] = /^\d+:([^:]*):(.*)$/.exec(line) ?? [];
    if (controllers !== undefined && path !== undefined) own.set(controllers, path);
  }
  return own;
}

function writable(dir: string): boolean {
  const probe = join(dir, `bb-erp-probe-${process.pid}`);
  try {
    mkdirSync(probe);
    rmdirSync(probe);
    return true;
  } catch {
    return false;
  }
}

const read = (file: string) => readFileSync(file, 'utf8').trim();

const V2_CONTROLLERS = ['memory', 'pids', 'cpu'];

/** A cgroup v2 folder under which a turn's cgroup gets the memory, pids and cpu controllers, enabling them if need be. */
function v2Base(base: string): string | undefined {
  try {
    const available = read(join(base, 'cgroup.controllers')).split(/\s+/);
    if (!V2_CONTROLLERS.every((c) => available.includes(c)) || !writable(base)) return undefined;
    const enabled = read(join(base, 'cgroup.subtree_control')).split(/\s+/);
    const missing = V2_CONTROLLERS.filter((c) => !enabled.includes(c));
    if (missing.length > 0) writeFileSync(join(base, 'cgroup.subtree_control'), missing.map((c) => `+${c}`).join(' '));
    return base;
  } catch {
    return undefined;
  }
}

/**
 * Where this machine lets a turn's cgroup be made: cgroup v2 when its unified hierarchy has the
 * memory, pids and cpu controllers for this process's cgroup to hand down; else v1 hierarchies of
 * memory, pids and cpuacct that this process may write (each one optional); else none, and the
 * limits fall back to rlimits and polling.
 */
export function planCgroups(): CgroupPlan {
  let all: Mount[];
  let own: Map<string, string>;
  try {
    all = mounts();
    own = ownCgroups();
  } catch {
    return { version: 'none' };
  }
  const unified = all.find((m) => m.type === 'cgroup2');
  if (unified) {
    // This process's own cgroup first; if it cannot hand controllers down (it holds processes
    // itself), the hierarchy's root, which may, when the runner is root.
    const bases = [...(own.has('') ? [join(unified.dir, own.get('')!)] : []), unified.dir];
    for (const base of bases) {
      const found = v2Base(base);
      if (found) return { version: 'v2', memory: found, pids: found, cpu: found };
    }
  }
  const v1 = (controller: string): string | undefined => {
    const mount = all.find((m) => m.type === 'cgroup' && m.options.includes(controller));
    if (!mount) return undefined;
    const path = [...own.entries()].find(([names]) => names.split(',').includes(controller))?.[1] ?? '/';
    const base = join(mount.dir, path);
    return existsSync(base) && writable(base) ? base : undefined;
  };
  const plan: CgroupPlan = { version: 'v1', memory: v1('memory'), pids: v1('pids'), cpu: v1('cpuacct') };
  if (!plan.memory && !plan.pids && !plan.cpu) return { version: 'none' };
  return plan;
}

let counter = 0;

/** One turn's cgroup: made before the turn's first process runs, removed after its last. */
export class TurnCgroup {
  private readonly dirs: { memory?: string; pids?: string; cpu?: string };

  private constructor(readonly plan: CgroupPlan, private readonly limits: TurnLimits) {
    const name = `bb-erp-turn-${process.pid}-${++counter}`;
    this.dirs = {
      ...(plan.memory ? { memory: join(plan.memory, name) } : {}),
      ...(plan.pids ? { pids: join(plan.pids, name) } : {}),
      ...(plan.cpu ? { cpu: join(plan.cpu, name) } : {}),
    };
  }

  static create(plan: CgroupPlan, limits: TurnLimits): TurnCgroup | undefined {
    if (plan.version === 'none') return undefined;
    const cg = new TurnCgroup(plan, limits);
    try {
      for (const dir of new Set(Object.values(cg.dirs))) mkdirSync(dir);
      cg.apply();
    } catch (err) {
      cg.remove();
      throw err;
    }
    return cg;
  }

  /** What the cgroup enforces itself; CPU time is read and enforced by the launcher. */
  get enforces(): LimitName[] {
    return [...(this.dirs.memory ? ['memory' as const] : []), ...(this.dirs.pids ? ['processes' as const] : []), ...(this.dirs.cpu ? ['cpu' as const] : [])];
  }

  private apply(): void {
    const { memory, pids } = this.dirs;
    if (this.plan.version === 'v2') {
      writeFileSync(join(memory!, 'memory.max'), String(this.limits.memory_bytes));
      if (existsSync(join(memory!, 'memory.swap.max'))) writeFileSync(join(memory!, 'memory.swap.max'), '0');
      writeFileSync(join(pids!, 'pids.max'), String(this.limits.processes));
      return;
    }
    if (memory) {
      writeFileSync(join(memory, 'memory.limit_in_bytes'), String(this.limits.memory_bytes));
      // Swap would let a turn go past its memory; the combined limit equal to the memory one allows none.
      if (existsSync(join(memory, 'memory.memsw.limit_in_bytes'))) writeFileSync(join(memory, 'memory.memsw.limit_in_bytes'), String(this.limits.memory_bytes));
    }
    if (pids) writeFileSync(join(pids, 'pids.max'), String(this.limits.processes));
  }

  /** Moves a process (and the threads of its group) into every controller's cgroup. */
  enter(pid: number): void {
    for (const dir of new Set(Object.values(this.dirs))) writeFileSync(join(dir, 'cgroup.procs'), String(pid));
  }

  /** The limit the turn has reached, if any: a kill by the memory limit, a refused fork, the CPU time spent. */
  reached(): LimitName | undefined {
    const { memory, pids, cpu } = this.dirs;
    try {
      if (memory) {
        const events = read(join(memory, this.plan.version === 'v2' ? 'memory.events' : 'memory.oom_control'));
        if (Number(/oom_kill (\d+)/.exec(events)?.[1] ?? 0) > 0) return 'memory';
      }
      if (pids && Number(/max (\d+)/.exec(read(join(pids, 'pids.events')))?.[1] ?? 0) > 0) return 'processes';
      if (cpu && this.cpuSeconds() > this.limits.cpu_seconds) return 'cpu';
    } catch {
      /* removed under us: the turn is over */
    }
    return undefined;
  }

  cpuSeconds(): number {
    const cpu = this.dirs.cpu;
    if (!cpu) return 0;
    if (this.plan.version === 'v2') return Number(/usage_usec (\d+)/.exec(read(join(cpu, 'cpu.stat')))?.[1] ?? 0) / 1e6;
    return Number(read(join(cpu, 'cpuacct.usage'))) / 1e9;
  }

  /** Removes the cgroup once its processes are gone (retried briefly: the last exit is reaped asynchronously). */
  remove(): void {
    for (const dir of new Set(Object.values(this.dirs))) {
      for (let i = 0; i < 50; i++) {
        try {
          if (existsSync(dir)) rmdirSync(dir);
          break;
        } catch {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
        }
      }
    }
  }
}
