#!/usr/bin/env node
// Agent commands with plain arguments take a lean path (same functions, no oclif start-up);
// everything else, help included, goes through oclif. ERP_CLI_OCLIF_ONLY=1 turns the lean path off.
(async () => {
  if (!process.env.ERP_CLI_OCLIF_ONLY && (await require('../dist/src/client/fast-path').runFast(process.argv.slice(2)))) return;
  const oclif = require('@oclif/core');
  await oclif
    .run(process.argv.slice(2), __dirname)
    .then(() => oclif.flush())
    .catch((err) => oclif.handle(require('../dist/src/cli-error').operatorError(err)));
})();
