// Every folder a test makes under os.tmpdir() lands in one root for the run, removed when the
// run ends, so a suite that forgets its own cleanup (or is killed) cannot fill the disk over runs.
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

module.exports.setup = async () => {
  const root = mkdtempSync(join(tmpdir(), 'bb-erp-test-run-'));
  process.env.BB_ERP_TEST_TMP_ROOT = root;
  process.env.TMPDIR = root;
};

module.exports.teardown = async () => {
  const root = process.env.BB_ERP_TEST_TMP_ROOT;
  if (root) rmSync(root, { recursive: true, force: true });
};
