import { copyFile, copyFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Fresh copies of a clean database, one made ahead in the background: a reset renames the copy
 * already made into place instead of copying the whole file while the runner waits.
 */
export class FreshCopies {
  private next: Promise<string | undefined> | undefined;
  private counter = 0;

  constructor(private readonly source: string, private readonly dir: string) {}

  /** Starts copying the next fresh copy, beside the served file (a rename never crosses file systems). */
  prepare(): void {
    const file = join(this.dir, `.fresh-${process.pid}-${++this.counter}.db`);
    this.next = new Promise((resolve) => copyFile(this.source, file, (err) => resolve(err ? undefined : file)));
  }

  /** `target` becomes a fresh copy (its WAL and shared-memory files gone); the next one starts. */
  async take(target: string): Promise<void> {
    const ready = this.next ? await this.next : undefined;
    for (const suffix of ['-wal', '-shm']) rmSync(target + suffix, { force: true });
    if (ready) renameSync(ready, target);
    else copyFileSync(this.source, target);
    this.prepare();
  }

  /** Removes a copy made ahead and not taken. */
  async dispose(): Promise<void> {
    const ready = this.next ? await this.next : undefined;
    this.next = undefined;
    if (ready) rmSync(ready, { force: true });
  }

  static beside(source: string, target: string): FreshCopies {
    return new FreshCopies(source, dirname(target));
  }
}
