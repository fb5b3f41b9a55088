import { chownSync, lchownSync, lstatSync, readdirSync, rmSync, chmodSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The host user and group a sandboxed turn runs as when the runner is root: no passwd entry, no
 * file of the host's, no group; inside the sandbox it is uid 1000. What the agent leaves behind
 * is owned by it, so nothing it makes runs as root on the host.
 */
export const AGENT_HOST_ID = 64_100;

export interface HostIds {
  uid: number;
  gid: number;
}

/**
 * Who a turn runs as on the host: the dedicated user when the runner is root, otherwise the
 * runner's own user, which is already not root and cannot hand files to another.
 */
export function agentHostIds(): HostIds & { dedicated: boolean } {
  const uid = process.getuid?.() ?? 0;
  if (uid === 0) return { uid: AGENT_HOST_ID, gid: AGENT_HOST_ID, dedicated: true };
  return { uid, gid: process.getgid?.() ?? uid, dedicated: false };
}

/** Gives a tree to a user without following a link in it (lchown); links stay as they are. */
export function chownTree(path: string, ids: HostIds): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return lchownSync(path, ids.uid, ids.gid);
  chownSync(path, ids.uid, ids.gid);
  if (stat.isDirectory()) for (const name of readdirSync(path)) chownTree(join(path, name), ids);
}

export interface Swept {
  /** Files whose setuid or setgid bit was cleared, relative to the swept folder. */
  privileged: string[];
  /** Device files, fifos and sockets removed. */
  removed: string[];
  /** Bytes of the regular files kept. */
  bytes: number;
}

const PRIVILEGED_BITS = 0o6000;

/**
 * What a turn left in a folder, made harmless for the host: setuid and setgid bits cleared, device
 * files, fifos and sockets removed, everything given back to `owner` (the runner). A link is
 * neither followed nor changed but its owner; the grader refuses one where it reads a file.
 */
export function sweepTree(root: string, owner: HostIds): Swept {
  const swept: Swept = { privileged: [], removed: [], bytes: 0 };
  const walk = (path: string, rel: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return lchownSync(path, owner.uid, owner.gid);
    if (stat.isFile() || stat.isDirectory()) {
      chownSync(path, owner.uid, owner.gid);
      // chown clears setuid and setgid on a file already; a directory's setgid is cleared here too.
      if (stat.mode & PRIVILEGED_BITS) {
        chmodSync(path, stat.mode & 0o1777);
        swept.privileged.push(rel);
      }
      if (stat.isFile()) swept.bytes += stat.size;
      else for (const name of readdirSync(path)) walk(join(path, name), rel ? `${rel}/${name}` : name);
      return;
    }
    rmSync(path, { force: true });
    swept.removed.push(rel);
  };
  walk(root, '');
  return swept;
}
