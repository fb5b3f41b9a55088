import { startOperatorProcess } from '../operator-start';
import type { SlotJob } from './campaign/slot-run';

startOperatorProcess();
// Required after the start, so that it loads from the code cache and the operator bundle.
const { runSlot } = require('./campaign/slot-run') as typeof import('./campaign/slot-run');

/**
 * A campaign's worker process: one attempt, given as JSON in argv[2], written into its staging
 * folder; prints its verdict as one JSON line. SIGTERM or SIGINT (the campaign forwards one) or the
 * campaign's end of stdin ends the agent and leaves the attempt incomplete; a second signal exits
 * at once. Progress lines go to stderr.
 */
const job = JSON.parse(process.argv[2]!) as SlotJob;
const controller = new AbortController();
let signals = 0;
const stop = (why: string) => {
  if (signals++ > 0) process.exit(130);
  controller.abort(why);
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
// The campaign holds our stdin open: its end means the campaign is gone.
process.stdin.on('end', () => controller.abort('the end of the campaign'));
process.stdin.resume();
runSlot(job, controller.signal, (line) => process.stderr.write(line + '\n'))
  .then((verdict) => {
    process.stdout.write(JSON.stringify({ verdict }) + '\n');
    process.exit(0);
  })
  .catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
