import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, symlinkSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';

/**
 * Whether a user that neither owns a path nor shares its group (the agent's host user) can reach
 * it: every folder above it searchable by others, the file readable (a folder also searchable).
 */
export function reachableByOthers(path: string): boolean {
  const full = resolve(path);
  let dir: string = sep;
  for (const part of full.split(sep).filter(Boolean)) {
    if ((statSync(dir).mode & 0o001) === 0) return false;
    dir = join(dir, part);
  }
  const stat = statSync(full);
  return stat.isDirectory() ? (stat.mode & 0o005) === 0o005 : (stat.mode & 0o004) !== 0;
}

function move(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    cpSync(from, to, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
    rmSync(from, { recursive: true, force: true });
  }
}

/**
 * A sandbox's staging folder under /tmp, which every user can reach. bwrap, started by the agent's
 * unprivileged user, can only bind paths that user can walk to: the host paths it cannot (an
 * attempt under /root, a test's private temporary folder) are copied here once (the runner's
 * files, a harness) or moved here for the turn (the workspace and HOME, moved back after it).
 * The folder holds the turn's unix sockets too, whose paths must stay short.
 */
export class Stage {
  readonly dir: string;
  private readonly copies = new Map<string, string>();
  private readonly lent: { host: string; staged: string }[] = [];

  constructor(private readonly reachable: (path: string) => boolean) {
    this.dir = mkdtempSync('/tmp/bb-erp-sandbox-');
    chmodSync(this.dir, 0o711);
    mkdirSync(join(this.dir, 'files'), { mode: 0o755 });
    mkdirSync(join(this.dir, 'turn'), { mode: 0o755 });
  }

  /** The path to bind for a file or folder that does not change during the attempt: itself, or a copy made once. */
  source(host: string): string {
    if (this.reachable(host)) return host;
    let copy = this.copies.get(host);
    if (!copy) {
      copy = join(this.dir, 'files', String(this.copies.size), host.split(sep).pop() || 'root');
      mkdirSync(dirname(copy), { mode: 0o755 });
      cpSync(host, copy, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
      this.copies.set(host, copy);
    }
    return copy;
  }

  /**
   * The path to bind for one turn's folder: itself, or moved here until giveBack(), with a link
   * left in its place so that the runner's side still finds it there during the turn.
   */
  lend(host: string, name: string): string {
    if (this.reachable(host)) return host;
    const staged = join(this.dir, 'turn', name);
    move(host, staged);
    symlinkSync(staged, host);
    this.lent.push({ host, staged });
    return staged;
  }

  /** Moves what the turn was lent back where it came from. */
  giveBack(): void {
    for (const { host, staged } of this.lent.splice(0).reverse()) {
      if (lstatSync(host, { throwIfNoEntry: false })?.isSymbolicLink()) unlinkSync(host);
      if (existsSync(staged)) move(staged, host);
    }
  }

  remove(): void {
    this.giveBack();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
