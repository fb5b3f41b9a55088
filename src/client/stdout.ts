import { writeSync } from 'node:fs';

/**
 * Writes a command's output to fd 1 directly: process.stdout builds a stream on first use, which
 * costs an agent command a few milliseconds of its start-up. A pipe that would block (EAGAIN)
 * takes the rest through process.stdout; a closed one (EPIPE) drops it, as a pipeline does.
 */
export function writeStdout(text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let at = 0;
  try {
    while (at < bytes.length) at += writeSync(1, bytes, at, bytes.length - at);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') return;
    if (code !== 'EAGAIN') throw err;
    process.stdout.write(bytes.subarray(at));
  }
}
