#!/usr/bin/env node
'use strict';
// node test/harbor/check.js DATASET ORACLE_JOBS NOP_JOBS: the checks of npm run test:harbor. Every
// exported task has a trial under each agent's jobs; the oracle's passes (reward 1) with the final
// hash the local runner's oracle left (task.toml's oracle_final_hash), the nop agent's scores 0.
// Prints one line per task with each trial's time; exits 1 when a check fails.
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { attemptsOfJob, harborTrial } = require('../../dist/src/runner/report/harbor-trials');

const [dataset, oracleJobs, nopJobs] = process.argv.slice(2);
if (!nopJobs) {
  console.error('usage: node test/harbor/check.js DATASET ORACLE_JOBS NOP_JOBS');
  process.exit(2);
}

const tasks = readdirSync(dataset, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(dataset, d.name, 'task.toml')))
  .map((d) => {
    const toml = readFileSync(join(dataset, d.name, 'task.toml'), 'utf8');
    return { folder: d.name, name: /^name = "([^"]+)"$/m.exec(toml)[1], oracleHash: /^oracle_final_hash = "([0-9a-f]+)"$/m.exec(toml)[1] };
  });

/** Every trial of every job under a jobs folder, with its attempt and its wall time. */
function trials(jobsDir) {
  const out = new Map();
  for (const job of readdirSync(jobsDir, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const { folder, result } of attemptsOfJob(join(jobsDir, job.name))) {
      const trial = harborTrial(folder);
      const started = Date.parse(trial.started_at ?? '');
      const finished = Date.parse(trial.finished_at ?? '');
      out.set(trial.task_name, { result, seconds: Number.isFinite(finished - started) ? (finished - started) / 1000 : NaN, reward: trial.verifier_result?.rewards?.reward });
    }
  }
  return out;
}

const oracle = trials(oracleJobs);
const nop = trials(nopJobs);
let failed = 0;
for (const t of tasks) {
  const o = oracle.get(t.name);
  const n = nop.get(t.name);
  const problems = [];
  if (!o) problems.push('no oracle trial');
  else {
    if (o.reward !== 1) problems.push(`oracle reward ${o.reward} (${o.result.verdict}${o.result.error ? `: ${o.result.error}` : ''})`);
    if (o.result.final_hash !== t.oracleHash) problems.push(`oracle final hash ${o.result.final_hash || 'none'} is not the local runner's ${t.oracleHash}`);
  }
  if (!n) problems.push('no nop trial');
  else if (n.reward !== 0) problems.push(`nop reward ${n.reward}`);
  const times = `oracle ${o ? o.seconds.toFixed(0) : '-'} s, nop ${n ? n.seconds.toFixed(0) : '-'} s`;
  console.log(`${problems.length ? 'FAIL' : 'ok  '} ${t.name}: ${times}${problems.length ? `: ${problems.join('; ')}` : ''}`);
  if (problems.length) failed += 1;
}
console.log(failed === 0 ? `every task: oracle 1 with the local runner's final hash, nop 0 (${tasks.length} tasks)` : `${failed} of ${tasks.length} task(s) failed`);
process.exit(failed === 0 ? 0 : 1);
