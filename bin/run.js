#!/usr/bin/env node
// Agent commands and `server start` with plain arguments take a lean path (same functions, no oclif start-up);
// everything else, help included, goes through oclif. ERP_CLI_OCLIF_ONLY=1 turns the lean path off.
// The operator's commands compile from a V8 code cache under .cache/ (src/code-cache.ts; ERP_CLI_CODE_CACHE=0 turns it off, =stats reports it)
// and load the package's modules from dist/erp-operator.cjs while it is current (src/operator-bundle.ts; ERP_CLI_BUNDLE likewise).
const start = require('../dist/src/operator-start');
start.startCodeCache();
(async () => {
  const argv = process.argv.slice(2);
  const lean = !process.env.ERP_CLI_OCLIF_ONLY;
  const serverStart = argv[0] === 'server' && argv[1] === 'start';
  const extras = { offlineDocs: () => require('../dist/src/api/offline-docs').offlineOpenApi() };
  if (lean && !serverStart && (await require('../dist/src/client/fast-path').runFast(argv, extras))) return;
  // After the agent commands: they load a few files, not the package.
  start.startOperatorBundle();
  if (lean && serverStart) {
    // The runner starts a server per attempt: plain flags and a sound file skip oclif's start-up too;
    // oclif reports anything else.
    const serve = require('../dist/src/api/serve');
    const flags = serve.plainServeFlags(argv.slice(2));
    if (flags && !require('../dist/src/api/file-check').serveProblem(flags)) return serve.serve(flags);
  }
  const oclif = require('@oclif/core');
  await oclif
    .run(argv, __dirname)
    .then(() => oclif.flush())
    .catch((err) => oclif.handle(require('../dist/src/cli-error').operatorError(err)));
})();
