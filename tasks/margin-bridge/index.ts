import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentPolicy, TaskCode } from '../../src/task-pack/code';
import { answer, styledAnswer, type Slant, type Style } from './answer';
import { COST, grossMargin, readBridge } from './bridge';
import { AFTER, BEFORE, generate } from './generate';

function policy(slant: Slant = {}, style?: Style): AgentPolicy {
  return async (ctx) => {
    if (slant.triesToPost) {
      const res = await ctx.client.post('/journal-entries', { date: '2026-09-30', memo: 'Rebate accrual', lines: [{ account: '4600', debit: '1.00' }, { account: '2300', credit: '1.00' }] });
      ctx.log(`posting the accrual: ${res.status}`);
    }
    const bridge = await readBridge(ctx.client);
    if (slant.revenueLessCogsOnly) {
      const narrow = { revenue: ['4000', '4010'], cost: COST.slice(0, 1) };
      bridge.before = await grossMargin(ctx.client, BEFORE, narrow);
      bridge.after = await grossMargin(ctx.client, AFTER, narrow);
    }
    writeFileSync(join(ctx.workspace, 'answer.md'), style ? styledAnswer(bridge, style) : answer(bridge, slant));
  };
}

const task: TaskCode = {
  generate,
  oracle: policy(),
  negatives: {
    'no-write-off': policy({ omitWriteOff: true }),
    'rebate-at-full-rate': policy({ rebateAtFullRate: true }),
    'rebate-adds-to-margin': policy({ rebateAsIncrease: true }),
    'price-on-receipts': policy({ priceOnReceipts: true }),
    'rebate-on-write-off-entry': policy({ rebateOnWriteOff: true }),
    'mix-in-a-bare-list': policy({ mixInBareList: true }),
    'revenue-only-margin': policy({ revenueLessCogsOnly: true }),
    'books-the-rebate': policy({ triesToPost: true }),
  },
  positives: {
    'heading-per-driver': policy({}, { layout: 'headings', format: 'dollars', wording: 'handbook' }),
    'nested-list-plain-words': policy({}, { layout: 'nested', format: 'usd', wording: 'plain' }),
    'table-abbreviations': policy({}, { layout: 'table', format: 'accounting', wording: 'abbreviations' }),
    'prose-directions-in-words': policy({}, { layout: 'prose', format: 'words', wording: 'plain' }),
  },
};
export default task;
