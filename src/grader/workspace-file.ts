import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, readSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/**
 * Reading what an agent left in its workspace, on the host, without trusting it: the agent made
 * every name there and can point a symbolic link at any host path it can guess (its mounts'
 * host paths are in its /proc/self/mountinfo). Every component of a path is lstat-ed from the
 * workspace root and may not be a link; the file is opened with O_NOFOLLOW (and O_NONBLOCK, so a
 * FIFO swapped in cannot hang the grader) and must be the regular file, of the same device and
 * inode, that was lstat-ed.
 */

/** The most a graded workspace file may hold; a larger one is refused, not read in part. */
export const MAX_WORKSPACE_FILE_BYTES = 16 * 1024 * 1024;

export type WorkspaceRead =
  | { ok: true; bytes: Buffer }
  /** `absent`: nothing at the path; any other refusal names what is there instead of a regular file. */
  | { ok: false; absent: boolean; refusal: string };

const refuse = (refusal: string, absent = false): WorkspaceRead => ({ ok: false, absent, refusal });

/** What a non-regular entry is, for a refusal. */
function kindOf(s: Stats): string {
  if (s.isDirectory()) return 'a directory';
  if (s.isFIFO()) return 'a named pipe';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device file';
  return 'not a regular file';
}

/** The link's own text (never followed). */
export function linkTarget(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return '(unreadable)';
  }
}

const linkRefusal = (rel: string, path: string, rule = 'a graded file must be a regular file in the workspace') =>
  `${rel} is a symbolic link to ${linkTarget(path)}; ${rule}, and links are not followed.`;

/** The components of a workspace-relative path; undefined when it is absolute or climbs out by a `..` component. */
function components(file: string): string[] | undefined {
  if (file.startsWith('/')) return undefined;
  const parts = file.split('/').filter((p) => p !== '' && p !== '.');
  return parts.length === 0 || parts.includes('..') ? undefined : parts;
}

/**
 * The bytes of `file` (relative to `workspace`, `/`-separated) when it is a regular file reached
 * through real directories only, at most `maxBytes` long; otherwise a refusal saying why.
 */
export function readWorkspaceFile(workspace: string, file: string, maxBytes = MAX_WORKSPACE_FILE_BYTES): WorkspaceRead {
  const parts = components(file);
  if (!parts) return refuse(`${file} is not a path inside the workspace.`);
  let path = workspace;
  let last: Stats | undefined;
  for (const [i, part] of parts.entries()) {
    path = join(path, part);
    const rel = parts.slice(0, i + 1).join('/');
    try {
      last = lstatSync(path);
    } catch {
      return refuse(`The workspace has no file ${file}.`, true);
    }
    if (last.isSymbolicLink()) return refuse(linkRefusal(rel, path, i === parts.length - 1 ? undefined : `the folders on the way to ${file} must be folders of the workspace`));
    if (i < parts.length - 1 && !last.isDirectory()) return refuse(`The workspace has no file ${file}: ${rel} is not a directory.`, true);
  }
  if (!last!.isFile()) return refuse(`${file} is ${kindOf(last!)}; a graded file must be a regular file.`);
  if (last!.size > maxBytes) return refuse(`${file} is ${last!.size} bytes, more than the ${maxBytes} a graded file may hold; it was not read.`);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ELOOP' ? refuse(linkRefusal(file, path)) : refuse(`${file} could not be opened (${code ?? (err as Error).message}).`);
  }
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile() || opened.dev !== last!.dev || opened.ino !== last!.ino) return refuse(`${file} changed while it was read; a graded file must stay one regular file.`);
    const size = Math.min(opened.size, maxBytes);
    const bytes = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, bytes, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return { ok: true, bytes: bytes.subarray(0, read) };
  } finally {
    closeSync(fd);
  }
}

/** A workspace file's text, or the refusal. */
export function readWorkspaceText(workspace: string, file: string, maxBytes?: number): { ok: true; text: string } | Extract<WorkspaceRead, { ok: false }> {
  const read = readWorkspaceFile(workspace, file, maxBytes);
  return read.ok ? { ok: true, text: read.bytes.toString('utf8') } : read;
}

/** What a walk of the workspace found: regular files to read, and the entries it did not enter or read. */
export interface WorkspaceListing {
  files: string[];
  /** Symbolic links, with their own text: never followed, into a file or a directory. */
  links: { path: string; target: string }[];
  /** Named pipes, sockets, devices: never opened. */
  others: string[];
}

/** Every entry under the workspace, `/`-separated and sorted, without following a link; `skip` names top-level entries left out. */
export function listWorkspace(workspace: string, skip: readonly string[] = []): WorkspaceListing {
  const out: WorkspaceListing = { files: [], links: [], others: [] };
  const walk = (dir: string, prefix: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of entries) {
      const rel = prefix ? `${prefix}/${d.name}` : d.name;
      if (!prefix && skip.includes(d.name)) continue;
      if (d.isSymbolicLink()) out.links.push({ path: rel, target: linkTarget(join(dir, d.name)) });
      else if (d.isDirectory()) walk(join(dir, d.name), rel);
      else if (d.isFile()) out.files.push(rel);
      else out.others.push(rel);
    }
  };
  walk(workspace, '');
  out.files.sort();
  out.links.sort((a, b) => (a.path < b.path ? -1 : 1));
  out.others.sort();
  return out;
}
