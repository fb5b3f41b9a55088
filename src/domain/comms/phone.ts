/**
 * Phone numbers are compared by their digits, so "(312) 555-0142", "312.555.0142" and
 * "+1 312 555 0142" are one number: a leading 1 of an eleven-digit number is the North American
 * country code and is dropped.
 */
export function phoneDigits(number: string): string {
  const digits = number.replace(/\D/g, '');
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
}

export function sameNumber(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  const da = phoneDigits(a);
  return da.length > 0 && da === phoneDigits(b);
}
