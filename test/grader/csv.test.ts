import { parseCsv, toCsv } from '../../src/grader/csv';

describe('a projection written as CSV', () => {
  const table = { columns: ['vendor', 'note', 'amount'], rows: [{ vendor: 'V-2', note: 'says "hi", twice\nthen stops', amount: '1108.8' }, { vendor: 'V-1', note: ' padded ', amount: '' }] };

  it('sorts rows and quotes what needs quoting', () => {
    expect(toCsv(table)).toBe('vendor,note,amount\nV-1," padded ",\nV-2,"says ""hi"", twice\nthen stops",1108.8\n');
  });

  it('reads back to the same rows', () => {
    const back = parseCsv(toCsv(table));
    expect(back.columns).toEqual(table.columns);
    expect(back.rows).toEqual([table.rows[1], table.rows[0]]);
  });

  it('reads a header with no rows', () => {
    expect(parseCsv('a,b\n')).toEqual({ columns: ['a', 'b'], rows: [] });
  });
});
