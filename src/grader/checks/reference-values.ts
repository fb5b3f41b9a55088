import type { ReferenceValueSpec } from '../../task-pack/schema';
import type { CheckContext } from './context';

const describe = (ref: ReferenceValueSpec) =>
  `${ref.projection}.${ref.column}${ref.where ? ` where ${Object.entries(ref.where).map(([k, v]) => `${k} = ${v}`).join(' and ')}` : ''}`;

/**
 * The values a reference stands for on this scenario: `column` of the rows of the reference's
 * `projection` that `where` picks. Throws when there are none: a check whose expectation is
 * missing cannot pass or fail on the answer's merits.
 */
export function referenceValues(ref: ReferenceValueSpec, ctx: CheckContext): string[] {
  const table = ctx.referenceTables.get(ref.projection);
  if (!table) throw new Error(`the reference has no projection ${ref.projection}`);
  if (!table.columns.includes(ref.column)) throw new Error(`the reference projection ${ref.projection} has no column ${ref.column}`);
  const rows = table.rows.filter((r) => Object.entries(ref.where ?? {}).every(([k, v]) => r[k] === String(v)));
  if (rows.length === 0) throw new Error(`the reference has no row for ${describe(ref)}`);
  return rows.map((r) => r[ref.column]!);
}

/** Literal figures, and the reference's figures in their place. */
export function resolveFigures(figures: readonly (number | ReferenceValueSpec)[], ctx: CheckContext): number[] {
  return figures.flatMap((f) => {
    if (typeof f === 'number') return [f];
    return referenceValues(f, ctx).map((v) => {
      const n = Number(v);
      if (v.trim() === '' || Number.isNaN(n)) throw new Error(`${describe(f)} is not a number ('${v}')`);
      return n;
    });
  });
}

/** Literal text, and the reference's text in its place. */
export function resolveMentions(items: readonly (string | ReferenceValueSpec)[], ctx: CheckContext): string[] {
  return items.flatMap((m) => {
    if (typeof m === 'string') return [m];
    const values = referenceValues(m, ctx);
    if (values.some((v) => v.trim() === '')) throw new Error(`${describe(m)} is empty`);
    return values;
  });
}
