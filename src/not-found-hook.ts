import { toConfiguredId, type Hook } from '@oclif/core';

/** The maintained plugin is an ES module; this file is CommonJS, whose `import()` TypeScript would turn into require. */
const importModule = new Function('id', 'return import(id)') as (id: string) => Promise<{ default: Hook<'command_not_found'> }>;

/** Edit distance between two command ids (insertions, deletions, substitutions). */
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next.push(Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    row = next;
  }
  return row[b.length]!;
}

export function nearest(id: string, ids: readonly string[]): string | undefined {
  return [...ids].sort((x, y) => editDistance(id, x) - editDistance(id, y) || x.localeCompare(y))[0];
}

/**
 * A mistyped command. At a terminal, @oclif/plugin-not-found asks "Did you mean bench run?" and runs
 * the answer. It says nothing of the nearest command when no one can answer (an agent's shell, a
 * script, a test): then this names it, and exits 127 as the plugin does.
 */
const hook: Hook<'command_not_found'> = async function (opts) {
  if (process.stdin.isTTY) return (await importModule('@oclif/plugin-not-found')).default.call(this, opts);
  const hidden = new Set(opts.config.commands.filter((c) => c.hidden).map((c) => c.id));
  const ids = [...opts.config.commandIDs, ...opts.config.commands.flatMap((c) => c.aliases)].filter((c) => !hidden.has(c));
  const topic = opts.id.split(':')[0]!;
  const suggestion = nearest(opts.id, ids);
  const typed = toConfiguredId(opts.id, opts.config);
  this.warn(`${typed} is not a ${opts.config.bin} command.${suggestion ? ` Did you mean ${toConfiguredId(suggestion, opts.config)}?` : ''}`);
  this.error(`Run ${opts.config.bin} help${opts.config.findTopic(topic) ? ` ${topic}` : ''} for a list of available commands.`, { exit: 127 });
};

export default hook;
