import { closeSync, openSync, writeSync } from 'node:fs';

export interface OutputCount {
  /** Bytes written to the file. */
  kept: number;
  /** Bytes read past the limit and dropped. */
  dropped: number;
}

/**
 * Copies a turn's output stream into its file up to `limit` bytes and counts the rest, so a turn
 * cannot fill the host's disk through its stdout. `onOverflow` is called once, at the first byte
 * past the limit. Resolves with the counts when the stream ends.
 */
export function boundedCopy(stream: NodeJS.ReadableStream, file: string, limit: number, onOverflow: () => void): Promise<OutputCount> {
  const fd = openSync(file, 'w');
  const count: OutputCount = { kept: 0, dropped: 0 };
  return new Promise((resolve) => {
    let open = true;
    const finish = () => {
      if (!open) return;
      open = false;
      stream.removeAllListeners('data');
      closeSync(fd);
      resolve(count);
    };
    stream.on('data', (chunk: Buffer) => {
      if (!open) return;
      const room = limit - count.kept;
      if (room > 0) {
        const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
        writeSync(fd, part);
        count.kept += part.length;
      }
      if (chunk.length > room) {
        if (count.dropped === 0) onOverflow();
        count.dropped += chunk.length - Math.max(room, 0);
      }
    });
    stream.once('end', finish);
    stream.once('error', finish);
    stream.once('close', finish);
  });
}
