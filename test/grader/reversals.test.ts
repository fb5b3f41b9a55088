import { reversedCount } from '../../src/grader/reversals';
import { ev } from '../support/grading';

describe('an agent that scheduled three leaves and cancelled one of them', () => {
  it('reversed one of its writes', () => {
    const writes = [
      ev(11, { type: 'LeaveScheduled', objectId: 'LV-1' }),
      ev(12, { type: 'LeaveScheduled', objectId: 'LV-2' }),
      ev(13, { type: 'LeaveScheduled', objectId: 'LV-3' }),
      ev(14, { type: 'LeaveCancelled', objectId: 'LV-2' }),
    ];
    expect(reversedCount(writes)).toBe(1);
  });

  it('reversed none when it cancelled a leave it did not write', () => {
    expect(reversedCount([ev(11, { type: 'LeaveScheduled', objectId: 'LV-1' }), ev(12, { type: 'LeaveCancelled', objectId: 'LV-9' })])).toBe(0);
  });
});

describe('an accountant who posted two entries, one reversing by design, and reversed the other by hand', () => {
  it('reversed one of its writes: the planned reversal is not an undo', () => {
    const writes = [
      ev(11, { type: 'JournalEntryPosted', objectId: 'JE-1', data: { id: 'JE-1', reversal_journal: {} } }),
      ev(12, { type: 'JournalEntryPosted', objectId: 'JE-2' }),
      ev(13, { type: 'JournalEntryReversed', objectId: 'JE-2' }),
    ];
    expect(reversedCount(writes)).toBe(1);
  });

  it('counts a month it closed and then reopened', () => {
    expect(reversedCount([ev(11, { type: 'PeriodClosed', objectId: '2026-09' }), ev(12, { type: 'PeriodReopened', objectId: '2026-09' })])).toBe(1);
  });
});
