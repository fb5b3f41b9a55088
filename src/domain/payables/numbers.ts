/**
 * A vendor invoice number reduced for duplicate detection (seed 004): punctuation and spaces
 * removed, an INV prefix dropped, leading zeros dropped, case folded. `INV-007640`, `inv 7640` and
 * `7640` all become `7640`; `KS-10422` becomes `KS10422`.
 */
export function normalizeInvoiceNumber(printed: string): string {
  const compact = printed.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const withoutPrefix = compact.startsWith('INV') ? compact.slice(3) : compact;
  const stripped = withoutPrefix.replace(/^0+/, '');
  return stripped === '' && withoutPrefix !== '' ? '0' : stripped;
}
