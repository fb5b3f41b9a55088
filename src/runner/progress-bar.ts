/** Where a bar draws: stderr in the CLI, a buffer in tests. */
export interface BarStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const WIDTH = 30;

/**
 * A progress bar for long generation. On a terminal it redraws one line in place; elsewhere (a
 * pipe, CI's log) it prints a line at each tenth, so logs stay short and still show it moving.
 */
export class ProgressBar {
  private lastTenth = -1;
  private lastDrawn = '';
  private finished = false;
  private started = false;

  constructor(private readonly label: string, private readonly stream: BarStream = process.stderr) {}

  update(done: number, total: number, note = ''): void {
    if (this.finished || total <= 0) return;
    this.started = true;
    const fraction = Math.min(1, Math.max(0, done / total));
    const percent = Math.floor(fraction * 100);
    if (this.stream.isTTY) {
      const filled = Math.round(fraction * WIDTH);
      const line = `${this.label} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${String(percent).padStart(3)}% ${note}`;
      if (line === this.lastDrawn) return;
      this.lastDrawn = line;
      this.stream.write(`\r${line.slice(0, (this.stream.columns ?? 120) - 1)}\u001b[K`);
      return;
    }
    const tenth = Math.floor(fraction * 10);
    if (tenth === this.lastTenth) return;
    this.lastTenth = tenth;
    this.stream.write(`${this.label}: ${tenth * 10}%${note ? ` (${note})` : ''}\n`);
  }

  /** Ends the bar's line with a closing word; a bar that never moved prints nothing. */
  done(note = 'done'): void {
    if (this.finished || !this.started) return;
    this.finished = true;
    this.stream.write(this.stream.isTTY ? `\r${this.label}: ${note}\u001b[K\n` : `${this.label}: ${note}\n`);
  }
}
