import type { TaskPack } from '../task-pack/load';
import { lintPack, type LintReport } from './lint';
import { diffHandbook, renderHandbook, writeHandbook, type HandbookDiff } from './render';

/** `erp handbook render`: writes handbook/ from policies.yaml. */
export function renderPackHandbook(pack: TaskPack): { dir: string; files: string[] } {
  return { dir: pack.handbookDir, files: writeHandbook(renderHandbook(pack.policies), pack.handbookDir) };
}

/** `erp handbook check`: the committed handbook/ is byte-identical to the rendering. */
export function checkPackHandbook(pack: TaskPack): HandbookDiff & { dir: string } {
  return { ...diffHandbook(renderHandbook(pack.policies), pack.handbookDir), dir: pack.handbookDir };
}

/** Copies the rendered handbook into a folder (a scenario's, an attempt's workspace). */
export function writeHandbookTo(pack: TaskPack, dir: string): string[] {
  return writeHandbook(renderHandbook(pack.policies), dir);
}

export { lintPack, type LintReport };
