import { existsSync, realpathSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { packageRoot } from '../package-info';
import { bwrapLauncher, bwrapProblem, type BwrapOptions } from './bwrap';
import { bundlePath } from './client-bundle';
import { bareLauncher, type AgentPrograms, type TurnLauncher } from './launcher';

/** How a command agent's turns are isolated: the bubblewrap sandbox unless the operator said --no-sandbox. */
export interface SandboxChoice {
  /** false: --no-sandbox, recorded as `unsandboxed` in the attempt's condition and cell. */
  sandbox: boolean;
}

/** The attempt's condition with `unsandboxed` added for a command agent run without the sandbox. */
export function conditionWithIsolation(condition: string, unsandboxed: boolean): string {
  if (!unsandboxed) return condition;
  return condition === 'clean' ? 'unsandboxed' : `${condition}+unsandboxed`;
}

/** Throws the one sentence that says how to install bubblewrap, when a sandbox is wanted and cannot be built. */
export function requireSandbox(choice: SandboxChoice): void {
  if (!choice.sandbox) return;
  const problem = bwrapProblem();
  if (problem) throw new Error(problem);
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && rel !== '..');
}

/**
 * The harness files an operator lets into the sandbox (`--agent-files`), as real absolute paths.
 * Refuses a path that would show the checkout, the scenarios, the runs or the cache: one that holds
 * any of them, or lies inside the scenario or the attempt.
 */
export function checkAgentFiles(paths: readonly string[], protectedDirs: { scenarioDir: string; attemptDir: string }): string[] {
  const guarded = [packageRoot(), protectedDirs.scenarioDir, protectedDirs.attemptDir, resolve('scenarios'), resolve('runs'), join(packageRoot(), '.cache')].map((d) => (existsSync(d) ? realpathSync(d) : resolve(d)));
  return paths.map((p) => {
    if (!existsSync(p)) throw new Error(`--agent-files ${p}: no such file or folder.`);
    const real = realpathSync(p);
    const shows = guarded.find((d) => inside(d, real));
    if (shows) throw new Error(`--agent-files ${p}: it would show ${shows} to the agent; name the harness's own files instead.`);
    for (const d of [protectedDirs.scenarioDir, protectedDirs.attemptDir]) {
      if (existsSync(d) && inside(real, realpathSync(d))) throw new Error(`--agent-files ${p}: it lies inside ${d}, which the agent must not see.`);
    }
    return real;
  });
}

/** The launcher of an attempt's command-agent turns; its support files go under `supportDir` (outside the workspace). */
export function launcherFor(choice: SandboxChoice, supportDir: string, options: BwrapOptions): TurnLauncher {
  const programs = agentPrograms();
  if (!choice.sandbox) return bareLauncher(join(supportDir, 'bin'), process.execPath, programs);
  requireSandbox(choice);
  return bwrapLauncher(supportDir, process.execPath, programs, options);
}

/** The built programs an agent may run; refuses when a build is missing. */
export function agentPrograms(): AgentPrograms {
  const programs: AgentPrograms = { client: bundlePath('client'), mcp: bundlePath('mcp'), llm: bundlePath('llm') };
  for (const file of Object.values(programs)) if (!existsSync(file)) throw new Error(`The agent program ${file} is missing: run npm run build.`);
  return programs;
}
