/** An invoice as read off its text attachment: what a clerk copies into the ERP, in cents. */
export interface ReadInvoice {
  vendorName: string;
  number: string;
  date: string;
  billTo: string;
  customerPo: string | null;
  lines: { po_line: number | null; item: string | null; description: string; qty: number; unit_price: number; amount: number }[];
  tax: number;
  total: number;
  /** Free text printed at the foot, below the remittance block. */
  notes: string;
}

const cents = (text: string) => Math.round(Number(text.replace(/[$,\s]/g, '')) * 100);

/** Column spans from the dashes under a table header (columns are separated by two spaces). */
function spans(dashes: string): [number, number][] {
  const out: [number, number][] = [];
  const re = /-+/g;
  for (let m = re.exec(dashes); m; m = re.exec(dashes)) out.push([m.index, m.index + m[0].length]);
  return out;
}

/** Reads the plain-text invoice the ERP prints beside the vendor's PDF. */
export function readInvoice(text: string): ReadInvoice {
  const rows = text.split('\n');
  const find = (prefix: string) => rows.find((r) => r.startsWith(prefix))?.slice(prefix.length).trim() ?? '';
  const billAt = rows.findIndex((r) => r.startsWith('Bill to:'));
  const head = rows.findIndex((r) => /^(PO Ln|Item)\s/.test(r));
  if (head < 0) throw new Error('No line table on the invoice.');
  const cols = spans(rows[head + 1]!);
  const names = cols.map(([a, b]) => rows[head]!.slice(a, b).trim());
  const lines: ReadInvoice['lines'] = [];
  let i = head + 2;
  for (; i < rows.length && rows[i]!.trim() !== ''; i++) {
    const cell = (name: string) => {
      const k = names.indexOf(name);
      if (k < 0) return '';
      const [a, b] = cols[k]!;
      return rows[i]!.slice(a, k === cols.length - 1 ? undefined : b).trim();
    };
    lines.push({
      po_line: cell('PO Ln') ? Number(cell('PO Ln')) : null, item: cell('Item') || null, description: cell('Description'),
      qty: Number(cell('Qty')), unit_price: cents(cell('Unit price')), amount: cents(cell('Amount')),
    });
  }
  const totals = new Map<string, number>();
  for (; i < rows.length && !rows[i]!.startsWith('Remit to:'); i++) {
    const m = /^(.+?):\s+(-?\$[\d,.]+)$/.exec(rows[i]!.trim());
    if (m) totals.set(m[1]!, cents(m[2]!));
  }
  const taxLabel = [...totals.keys()].find((k) => !['Subtotal', 'Freight', 'TOTAL DUE'].includes(k));
  const remit = rows.findIndex((r) => r.startsWith('Remit to:'));
  let foot = remit < 0 ? i : remit;
  while (foot < rows.length && rows[foot]!.trim() !== '') foot++;
  const po = find('Customer PO:');
  return {
    vendorName: rows[0]!.trim(), number: find('INVOICE No.'), date: find('Invoice date:'), billTo: billAt >= 0 ? rows[billAt + 1]!.trim() : '',
    customerPo: po && po !== 'none' ? po : null, lines, tax: taxLabel ? totals.get(taxLabel)! : 0, total: totals.get('TOTAL DUE') ?? 0,
    notes: rows.slice(foot).join(' ').trim(),
  };
}

/** The number without dashes, spaces or capitals (AP-1.6). */
export const sameNumber = (n: string) => n.toUpperCase().replace(/[^A-Z0-9]/g, '');
