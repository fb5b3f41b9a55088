/**
 * Quantities are decimal numbers (kilograms, metres); sums of them are rounded to six places so
 * that 0.1 + 0.2 received twice compares equal to 0.3 ordered, live and in replay alike.
 */
export function roundQty(qty: number): number {
  const rounded = Math.round(qty * 1e6) / 1e6;
  return rounded === 0 ? 0 : rounded;
}
