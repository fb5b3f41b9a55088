/** A projection's output as text: column names and rows of strings (NULL is the empty string). */
export interface Table {
  columns: string[];
  rows: Record<string, string>[];
}

function quote(value: string): string {
  return /[",\r\n]/.test(value) || value !== value.trim() ? `"${value.replace(/"/g, '""')}"` : value;
}

/** RFC 4180 text with a header; rows sorted by every column so the file depends only on its contents. */
export function toCsv(table: Table): string {
  const lines = [table.columns.map(quote).join(',')];
  const rows = table.rows.map((r) => table.columns.map((c) => r[c] ?? ''));
  rows.sort(compareRows);
  for (const r of rows) lines.push(r.map(quote).join(','));
  return lines.join('\n') + '\n';
}

function compareRows(a: string[], b: string[]): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i]! < b[i]!) return -1;
    if (a[i]! > b[i]!) return 1;
  }
  return 0;
}

export function parseCsv(text: string): Table {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += ch;
  }
  if (field.length > 0 || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  const [header, ...body] = records;
  const columns = header ?? [];
  return { columns, rows: body.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i] ?? '']))) };
}
