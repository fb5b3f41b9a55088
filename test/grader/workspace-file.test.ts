import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listWorkspace, readWorkspaceFile, readWorkspaceText } from '../../src/grader/workspace-file';

/** A workspace as an agent may leave it, beside a host file it must not be able to point the grader at. */
const root = mkdtempSync(join(tmpdir(), 'bb-erp-wsfile-'));
const ws = join(root, 'workspace');
const secret = join(root, 'secret.md');
beforeAll(() => {
  mkdirSync(join(ws, 'notes'), { recursive: true });
  writeFileSync(secret, 'the oracle answer');
  writeFileSync(join(ws, 'answer.md'), 'my answer');
  writeFileSync(join(ws, '..notes.md'), 'dotted');
  writeFileSync(join(ws, 'notes', 'handoff.md'), 'handed off');
  writeFileSync(join(ws, 'big.md'), 'x'.repeat(2000));
  symlinkSync(secret, join(ws, 'linked.md'));
  symlinkSync(root, join(ws, 'up'));
  execFileSync('mkfifo', [join(ws, 'pipe.md')]);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a workspace file read on the host', () => {
  it('is read when it is a regular file reached through real folders, whatever its name', () => {
    expect(readWorkspaceText(ws, 'answer.md')).toEqual({ ok: true, text: 'my answer' });
    expect(readWorkspaceText(ws, 'notes/handoff.md')).toEqual({ ok: true, text: 'handed off' });
    expect(readWorkspaceText(ws, '..notes.md')).toEqual({ ok: true, text: 'dotted' });
  });

  it('is refused, naming the link and where it points, when it or a folder on its way is a symbolic link', () => {
    expect(readWorkspaceFile(ws, 'linked.md')).toEqual({ ok: false, absent: false, refusal: `linked.md is a symbolic link to ${secret}; a graded file must be a regular file in the workspace, and links are not followed.` });
    expect(readWorkspaceFile(ws, 'up/secret.md')).toMatchObject({ ok: false, absent: false, refusal: `up is a symbolic link to ${root}; the folders on the way to up/secret.md must be folders of the workspace, and links are not followed.` });
  });

  it('is refused when it is not a regular file (without waiting on a named pipe), too large, or outside the workspace', () => {
    expect(readWorkspaceFile(ws, 'pipe.md')).toMatchObject({ ok: false, refusal: 'pipe.md is a named pipe; a graded file must be a regular file.' });
    expect(readWorkspaceFile(ws, 'notes')).toMatchObject({ ok: false, refusal: 'notes is a directory; a graded file must be a regular file.' });
    expect(readWorkspaceFile(ws, 'big.md', 1000)).toMatchObject({ ok: false, refusal: 'big.md is 2000 bytes, more than the 1000 a graded file may hold; it was not read.' });
    expect(readWorkspaceFile(ws, '../secret.md')).toMatchObject({ ok: false, absent: false });
    expect(readWorkspaceFile(ws, secret)).toMatchObject({ ok: false, absent: false });
    expect(readWorkspaceFile(ws, 'missing.md')).toEqual({ ok: false, absent: true, refusal: 'The workspace has no file missing.md.' });
  });
});

describe('a walk of the workspace', () => {
  it('lists regular files, and links and other entries apart, entering no linked folder', () => {
    expect(listWorkspace(ws, ['notes'])).toEqual({
      files: ['..notes.md', 'answer.md', 'big.md'],
      links: [{ path: 'linked.md', target: secret }, { path: 'up', target: root }],
      others: ['pipe.md'],
    });
  });
});
