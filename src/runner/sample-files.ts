/**
 * The two scripts of the public sample, written into it as they are: a runner that needs nothing
 * but Node and the folder, and the reference agent as a process, the way a user's agent plugs in.
 */
export const RUN_SCRIPT = `#!/usr/bin/env node
'use strict';
// node run.js [--agent '<command>' [--agent-name NAME] [--model MODEL]] [--agent-files PATH] [--task <slug>] [--no-sandbox]
// Runs each task of this sample (seed 1) with the agent and grades it. The agent is a shell command
// run in a bubblewrap sandbox: its workspace, ERP_URL, ERP_TOKEN and erp on its PATH; the prompt
// comes on stdin and its file's path as the last argument. Without --agent, the reference agent plays.
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { runAttempt } = require('./dist/src/runner/attempt');
const { loadPack } = require('./dist/src/task-pack/load');
const { packHash } = require('./dist/src/task-pack/fingerprint');

const args = process.argv.slice(2);
const flag = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const root = __dirname;
const scenarios = join(root, 'scenarios');
const only = flag('--task');
const tasks = readdirSync(scenarios).filter((t) => !only || t === only).sort();
if (tasks.length === 0) { console.error(\`No task \${only} in this sample; tasks: \${readdirSync(scenarios).join(', ')}\`); process.exit(2); }

(async () => {
  let failed = 0;
  for (const task of tasks) {
    const scenarioDir = join(scenarios, task, 'seed-1');
    const pack = loadPack(task, join(root, 'tasks'));
    const command = flag('--agent') ?? \`"\${process.execPath}" "\${join(root, 'agents', 'reference.js')}" \${task}\`;
    // The reference agent needs its own script, the client and the task code; an agent of yours, what --agent-files names.
    const agentFiles = flag('--agent') ? (flag('--agent-files') ? [flag('--agent-files')] : []) : [join(root, 'agents'), join(root, 'dist', 'src', 'client'), join(root, 'dist', 'tasks')];
    const label = flag('--agent') ? 'agent' : 'reference';
    const identity = { agent_name: flag('--agent-name') ?? label, model: flag('--model') ?? null, interface: 'cli' };
    let rep = 1;
    while (existsSync(join(root, 'runs', label, task, \`rep-\${rep}\`))) rep += 1;
    const attemptDir = join(root, 'runs', label, task, \`rep-\${rep}\`);
    const { result } = await runAttempt({ pack, packHash: packHash(pack), scenarioDir, seed: 1, agent: { kind: 'command', command }, identity, attemptDir, label, rep, agentFiles, sandbox: !args.includes('--no-sandbox') });
    const checks = result.checks.map((c) => \`  \${c.passed ? 'ok  ' : 'FAIL'} \${c.id}: \${c.detail}\`).join('\\n');
    console.log(\`\${task}: \${result.verdict} (\${result.required_checks.passed}/\${result.required_checks.total} checks) in \${attemptDir}\\n\${checks}\`);
    if (!result.passed) failed += 1;
  }
  console.log(failed === 0 ? 'every task passed' : \`\${failed} task(s) did not pass\`);
  process.exit(failed === 0 ? 0 : 1);
})().catch((err) => { console.error(err); process.exit(2); });
`;

export const REFERENCE_AGENT = `#!/usr/bin/env node
'use strict';
// The reference solution as an agent process: node agents/reference.js <task> [prompt-file].
// It works through the tools of /tools.json with the token it is given, as any agent would.
const { join } = require('node:path');
const { ErpClient } = require('../dist/src/client/http-client');

const task = process.argv[2];
const code = require(join(__dirname, '..', 'dist', 'tasks', task, 'index.js')).default;
const client = new ErpClient({ baseUrl: process.env.ERP_URL, token: process.env.ERP_TOKEN, keepAlive: true });
const turn = { index: 1, date: '', from: '', request: '', prompt: '' };
code.oracle({ client, erpUrl: process.env.ERP_URL, turn, workspace: process.cwd(), log: (line) => console.log(line) })
  .then(() => client.close())
  .catch((err) => { console.error(err); client.close(); process.exit(1); });
`;

export function sampleReadme(tasks: readonly { family: string; task: string; title: string }[]): string {
  return `# bb-erp public sample: AP exceptions at Halvorsen Distribution Co.

One seed-1 task from each of the five AP-exception families (seed 004), with the ERP they run on, the
grader and a run script. It needs Node ${process.versions.node.split('.')[0]} and bubblewrap (\`apt-get install -y
bubblewrap\`; \`--no-sandbox\` runs without it), nothing else: the dependencies, SQLite's compiled
addon included, are in \`node_modules/\`.

\`\`\`sh
node run.js                              # the reference agent plays every task; each should pass
node run.js --task ap-duplicate          # one task
node run.js --agent 'my-agent --model x' --agent-name my-agent-1 --model x --agent-files /path/to/my-agent   # your agent: a shell command
\`\`\`

Your agent runs once per task as a shell command in a sandbox, in the attempt's workspace (the
handbook is in \`handbook/\` there), with \`ERP_URL\` and \`ERP_TOKEN\` set and \`erp\` on its
\`PATH\`; it sees the system read-only and the file or folder \`--agent-files\` names; the prompt
comes on stdin and its file's path is the last argument. It works through the tools:
\`erp call\` lists them, \`erp call list_queue\` shows its queue, and the same tools are described
as function-calling JSON Schemas at \`$ERP_URL/tools.json\`. Every attempt is written to
\`runs/<label>/<task>/rep-N/\` with its databases, the agent's output and \`result.json\`.

| family | task | |
|---|---|---|
${tasks.map((t) => `| ${t.family} | \`${t.task}\` | ${t.title} |`).join('\n')}

This is not a held-out set: its answer keys (\`scenarios/*/seed-1/truth.json\` and \`reference/\`)
are public. Use it to inspect the work and to test a harness, not to report results.
`;
}
