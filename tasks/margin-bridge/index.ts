import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentPolicy, TaskCode } from '../../src/task-pack/code';
import { COST, grossMargin, money, readBridge, type Bridge } from './bridge';
import { AFTER, BEFORE, generate } from './generate';

/** How an answer departs from the handbook's: each negative control changes one thing. */
interface Slant {
  /** Leaves the write-off out (MB-1.2/write_off). */
  omitWriteOff?: boolean;
  /** Gives the rebate at the whole new rate rather than what the tier added (MB-1.3). */
  rebateAtFullRate?: boolean;
  /** Cites the receipts for the price increase rather than the vendor's invoice (MB-1.2/price). */
  priceOnReceipts?: boolean;
  /** Cites the write-off's adjustment for the rebate (MB-1.2/rebate). */
  rebateOnWriteOff?: boolean;
  /** Names the mix in one line and lists its figure with the others, in no sentence of its own (MB-1.2/mix). */
  mixInBareList?: boolean;
  /** Gross margin as sales less cost of goods sold alone (MB-1.1). */
  revenueLessCogsOnly?: boolean;
  /** Tries to book the rebate accrual itself before answering (MB-2.1). */
  triesToPost?: boolean;
}

function answer(b: Bridge, slant: Slant): string {
  const change = b.after - b.before;
  const rebate = slant.rebateAtFullRate ? b.rebate.amount * 2 : b.rebate.amount;
  const explained = b.price.amount + rebate + b.writeOff.amount + b.mix;
  const lines = [
    `# Gross margin bridge, ${BEFORE} to ${AFTER}`,
    '',
    `Gross margin was ${money(b.before)} in August and ${money(b.after)} in September, a change of ${money(change)}.`,
    '',
    '## Drivers',
    '',
    `- Vendor price increase effective 1 September: ${money(b.price.amount)}, billed on top of the PO price on ${slant.priceOnReceipts ? `receipts ${b.receipts.join(', ')}` : `vendor invoice ${b.price.document}`}.`,
    `- Retroactive customer rebate tier reached in September: ${money(rebate)}, journal entry ${slant.rebateOnWriteOff ? b.writeOff.document : b.rebate.document}.`,
  ];
  if (!slant.omitWriteOff) lines.push(`- Inventory write-off of corroded stock: ${money(b.writeOff.amount)}, adjustment ${b.writeOff.document}.`);
  if (slant.mixInBareList) lines.push('- Mix of items sold.', '', `Figures: ${money(b.mix)}.`);
  else lines.push(`- Mix of items sold, at August's margin rates (sales-margin report by item): ${money(b.mix)}.`);
  lines.push('', `Everything else (volume, production variances, scrap, freight) comes to ${money(change - explained)}.`, '');
  return lines.join('\n');
}

function policy(slant: Slant = {}): AgentPolicy {
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
    writeFileSync(join(ctx.workspace, 'answer.md'), answer(bridge, slant));
  };
}

const task: TaskCode = {
  generate,
  oracle: policy(),
  negatives: {
    'no-write-off': policy({ omitWriteOff: true }),
    'rebate-at-full-rate': policy({ rebateAtFullRate: true }),
    'price-on-receipts': policy({ priceOnReceipts: true }),
    'rebate-on-write-off-entry': policy({ rebateOnWriteOff: true }),
    'mix-in-a-bare-list': policy({ mixInBareList: true }),
    'revenue-only-margin': policy({ revenueLessCogsOnly: true }),
    'books-the-rebate': policy({ triesToPost: true }),
  },
};
export default task;
