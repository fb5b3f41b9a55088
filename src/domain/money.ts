/**
 * Money is integer cents inside and exact decimals at the API. A request amount is a JSON number or
 * a decimal string with at most two places (the `x-money` schema keyword has already refused more).
 */
export function toCents(amount: number | string): number {
  if (typeof amount === 'string') {
    const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
    if (!m) throw new Error(`Not an amount: ${amount}`);
    const cents = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
    return m[1] ? -cents : cents;
  }
  const cents = Math.round(amount * 100);
  if (Math.abs(cents - amount * 100) > 1e-6) throw new Error(`Not an amount with two decimals: ${amount}`);
  return cents;
}

/** Cents as a JSON number with at most two decimals (exact: 110880 → 1108.8). */
export function fromCents(cents: number): number {
  return cents / 100;
}

/** Cents as a fixed two-decimal string, for documents and messages: 110880 → "1,108.80". */
export function formatCents(cents: number, grouping = true): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100).toString();
  const grouped = grouping ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : whole;
  return `${sign}${grouped}.${String(abs % 100).padStart(2, '0')}`;
}

/** Rounds half away from zero: the one rounding rule for money (discounts, tax, price × quantity). */
export function roundCents(value: number): number {
  return Math.sign(value) * Math.round(Math.abs(value) + 1e-9);
}

/** Basis points of an amount in cents, rounded. */
export function applyBasisPoints(cents: number, bp: number): number {
  return roundCents((cents * bp) / 10000);
}
