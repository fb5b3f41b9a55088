import { addBusinessDays, daysBetween, isBusinessDay, nextBusinessDay, previousBusinessDay, type WorkCalendar } from '../../src/domain/calendar';

/** Monday to Friday, with Labor Day 2026 (Monday 7 September) a holiday. */
const cal: WorkCalendar = { workdays: [1, 2, 3, 4, 5], isHoliday: (d) => d === '2026-09-07' };

describe('the business calendar', () => {
  it('skips weekends and holidays going forward', () => {
    expect(isBusinessDay('2026-09-07', cal)).toBe(false);
    expect(nextBusinessDay('2026-09-04', cal)).toBe('2026-09-08');
    expect(addBusinessDays('2026-09-03', 3, cal)).toBe('2026-09-09');
  });

  it('skips weekends and holidays going back', () => {
    expect(previousBusinessDay('2026-09-08', cal)).toBe('2026-09-04');
    expect(previousBusinessDay('2026-09-10', cal)).toBe('2026-09-09');
  });

  it('counts calendar days between two dates', () => {
    expect(daysBetween('2025-10-01', '2026-10-02')).toBe(366);
  });
});
