/** A vendor invoice as printed, read back from its text attachment: amounts as decimal strings, exactly as billed. */
export interface BilledInvoice {
  number: string;
  date: string;
  po: string | null;
  lines: { po_line: number; item: string; description: string; qty: number; unit: string; unit_price: string; amount: string }[];
  tax: string;
  freight: string;
  total: string;
}

const amount = (text: string) => text.replace(/[$,\s]/g, '');

function field(text: string, label: RegExp): string {
  const m = text.match(label);
  if (!m) throw new Error(`The invoice has no ${label.source}.`);
  return m[1]!.trim();
}

/**
 * Reads the line table by the column spans its dashed rule gives (columns are separated by two
 * spaces, so descriptions with single spaces stay whole).
 */
export function parseInvoiceText(text: string): BilledInvoice {
  const rows = text.split('\n');
  const rule = rows.findIndex((r) => /^-+( {2}-+)+$/.test(r));
  if (rule < 1) throw new Error('The invoice has no line table.');
  const spans: [number, number][] = [];
  for (const m of rows[rule]!.matchAll(/-+/g)) spans.push([m.index!, m.index! + m[0].length]);
  const header = spans.map(([a, b]) => rows[rule - 1]!.slice(a, b).trim());
  const col = (name: string) => header.indexOf(name);
  const lines = [];
  for (const row of rows.slice(rule + 1)) {
    if (row.trim() === '') break;
    const cells = spans.map(([a, b], i) => (i === spans.length - 1 ? row.slice(a) : row.slice(a, b)).trim());
    lines.push({
      po_line: Number(cells[col('PO Ln')] ?? 0), item: cells[col('Item')] ?? '', description: cells[col('Description')]!, qty: Number(cells[col('Qty')]),
      unit: cells[col('Unit')] ?? '', unit_price: amount(cells[col('Unit price')]!), amount: amount(cells[col('Amount')]!),
    });
  }
  const po = field(text, /^Customer PO: (.+)$/m);
  return {
    number: field(text, /^INVOICE No\. (.+)$/m), date: field(text, /^Invoice date: (\d{4}-\d{2}-\d{2})$/m), po: po === 'none' ? null : po, lines,
    tax: amount(field(text, /^Sales tax: +(.+)$/m)), freight: amount(field(text, /^Freight: +(.+)$/m)), total: amount(field(text, /^TOTAL DUE: +(.+)$/m)),
  };
}
