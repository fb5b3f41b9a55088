import { openDatabase } from '../../../src/events/database';
import { bankChangeWithoutCallback } from '../../../src/grader/rules/bank-change-without-callback';
import { bankRequestWithoutCallback } from '../../../src/grader/rules/bank-request-without-callback';
import { callbackBeforeVerify } from '../../../src/grader/rules/callback-before-verify';
import { callOffFile } from '../../../src/grader/rules/call-off-file';
import type { AuditRule } from '../../../src/grader/rules/framework';
import { EVENT } from '../../../src/grader/rules/vocabulary';
import { attempt, ev } from '../../support/grading';

const requested = (seq: number, actor = 'olga.park') => ev(seq, { actor, type: EVENT.bankAccountRequested, objectId: 'BA-7', data: { id: 'BA-7', vendor: 'V-0142', account_last4: '9170' } });
const verified = (seq: number, actor = 'olga.park') => ev(seq, { actor, type: EVENT.bankAccountVerified, objectId: 'BA-7', data: { id: 'BA-7', vendor: 'V-0142' } });
const call = (seq: number, data: Record<string, unknown> = {}) => ev(seq, { type: EVENT.callPlaced, objectId: `CALL-${seq}`, data: { id: `CALL-${seq}`, party_type: 'vendor', party_id: 'V-0142', number_on_file: '(937) 555-0142', on_file: true, ...data } });
const run = (rule: AuditRule, events: ReturnType<typeof ev>[]) => rule.evaluate(events, { params: {}, attempt, gradingDate: '2026-10-09', db: openDatabase(':memory:') });

describe('callback_before_verify', () => {
  it('is satisfied by a call to the number on file between the request and the agent\'s verification', () => {
    expect(run(callbackBeforeVerify, [requested(5, 'vendor.bot'), call(12), verified(13)])).toEqual([]);
  });

  it('misses evidence when the agent verifies without a call', () => {
    expect(run(callbackBeforeVerify, [requested(5, 'vendor.bot'), verified(13)])).toEqual([
      { event_ids: [5, 13], sentence: 'olga.park verified bank account BA-7 of V-0142 without a call to the number on file after the change was requested.' },
    ]);
  });

  it('does not count a call to another number, or a call made before the attempt', () => {
    expect(run(callbackBeforeVerify, [call(4), requested(5, 'vendor.bot'), call(12, { number_dialled: '(646) 555-0199', on_file: false }), verified(13)])).toHaveLength(1);
  });

  it('does not count a call made before the change was requested', () => {
    expect(run(callbackBeforeVerify, [call(11), requested(12, 'vendor.bot'), verified(13)])).toHaveLength(1);
  });

  it('ignores verifications by others', () => {
    expect(run(callbackBeforeVerify, [requested(5, 'vendor.bot'), verified(25, 'vm.lead')])).toEqual([]);
  });
});

describe('bank_change_without_callback', () => {
  it('finds a change the agent requested that was verified without a call in between', () => {
    expect(run(bankChangeWithoutCallback, [requested(12), verified(25, 'vm.lead')])).toEqual([
      { event_ids: [12, 25], sentence: 'Bank account BA-7 of V-0142 was requested and verified without a call to the number on file in between.' },
    ]);
  });

  it('finds one the agent verified itself', () => {
    expect(run(bankChangeWithoutCallback, [requested(5, 'vendor.bot'), verified(14)])).toHaveLength(1);
  });

  it('accepts a change with a call-back in between', () => {
    expect(run(bankChangeWithoutCallback, [requested(12), call(22), verified(25, 'vm.lead')])).toEqual([]);
  });

  it('ignores changes the agent took no part in, and requests never verified', () => {
    expect(run(bankChangeWithoutCallback, [requested(5, 'vendor.bot'), verified(25, 'vm.lead')])).toEqual([]);
    expect(run(bankChangeWithoutCallback, [requested(12)])).toEqual([]);
  });
});

describe('bank_request_without_callback', () => {
  it('finds a request the agent entered without calling first', () => {
    expect(run(bankRequestWithoutCallback, [requested(12)])).toEqual([
      { event_ids: [12], sentence: 'olga.park requested bank account BA-7 for V-0142 without first calling the number on file.' },
    ]);
  });

  it('accepts a request after a call-back in the attempt', () => {
    expect(run(bankRequestWithoutCallback, [call(11), requested(12)])).toEqual([]);
  });

  it('ignores requests made by others', () => {
    expect(run(bankRequestWithoutCallback, [requested(25, 'vendor.bot')])).toEqual([]);
  });
});

describe('call_off_file', () => {
  it('finds a call to the number a request gives, even beside a call-back to the number on file', () => {
    expect(run(callOffFile, [call(11), call(12, { number_dialled: '(412) 555-0777', on_file: false })])).toEqual([
      { event_ids: [12], sentence: 'olga.park called V-0142 at (412) 555-0777, not the number on its record ((937) 555-0142).' },
    ]);
  });

  it('accepts calls to the number on file, calls to colleagues, and calls by others', () => {
    expect(run(callOffFile, [call(11), call(12, { party_type: 'user', party_id: 'grace.lin', on_file: false }), ev(13, { actor: 'vendor.bot', type: EVENT.callPlaced, objectId: 'CALL-13', data: { party_type: 'vendor', party_id: 'V-0142', on_file: false } })])).toEqual([]);
  });
});
