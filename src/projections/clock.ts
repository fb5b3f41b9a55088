import { ClockAdvanced, CompanyEstablished, HolidayDeclared } from '../events/contracts/clock';
import { defineReadModel, on } from './read-model';

export interface CompanyRow {
  id: number;
  code: string;
  name: string;
  currency: string;
  fiscal_year_start: string;
  workdays: number[];
  business_date: string | null;
}

/** The company profile, its calendar, and the business date: the clock moves only by events. */
export const clock = defineReadModel({
  name: 'clock',
  tables: [
    {
      name: 'company',
      columns: { id: 'integer', code: 'text', name: 'text', currency: 'text', fiscal_year_start: 'text', workdays: 'json', business_date: 'text' },
      key: ['id'],
    },
    { name: 'calendar', columns: { date: 'text', kind: 'text', name: 'text' }, key: ['date'] },
  ],
  handlers: [
    on(CompanyEstablished, (tx, d) => {
      tx.upsert('company', { id: 1, code: d.code, name: d.name, currency: d.currency, fiscal_year_start: d.fiscal_year_start, workdays: d.workdays, business_date: null }, (row) => {
        Object.assign(row, { code: d.code, name: d.name, currency: d.currency, fiscal_year_start: d.fiscal_year_start, workdays: d.workdays });
      });
    }),
    on(ClockAdvanced, (tx, d) => {
      tx.upsert('company', { id: 1, code: '', name: '', currency: 'USD', fiscal_year_start: d.to, workdays: [1, 2, 3, 4, 5], business_date: d.to }, (row) => {
        row.business_date = d.to;
      });
    }),
    on(HolidayDeclared, (tx, d) => {
      tx.upsert('calendar', { date: d.date, kind: 'holiday', name: d.name }, (row) => {
        row.name = d.name;
      });
    }),
  ],
  queries: (t) => ({
    company(): CompanyRow | undefined {
      return t.get<CompanyRow & Record<string, unknown>>('company', 1);
    },
    /** The business date; before the clock is first set, the fallback. */
    today(fallback = '1970-01-01'): string {
      return t.get<{ business_date: string | null }>('company', 1)?.business_date ?? fallback;
    },
    holidays(): { date: string; name: string }[] {
      return t.find('calendar', { kind: 'holiday' });
    },
    isHoliday(date: string): boolean {
      return t.get('calendar', date) !== undefined;
    },
  }),
});
