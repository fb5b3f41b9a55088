import { Command, Flags } from '@oclif/core';
import { serveProblem } from '../../api/file-check';
import { serve } from '../../api/serve';

export default class ServerStart extends Command {
  static override summary = 'Serve a scenario or attempt database: the agent API and the control API.';
  static override description = 'Checks the file it serves first (SQLite\'s integrity check and the event log\'s hash chain; with --reset-from, the file its copies are made of) and refuses a damaged one, saying what is wrong. Prints one JSON line with both addresses (and the control token when it was generated), then serves until SIGINT/SIGTERM or POST /control/shutdown. The control port listens on 127.0.0.1 only.';
  static override examples = ['<%= config.bin %> server start --db scenario.db --port 8080 --control-port 8081 --control-token secret', '<%= config.bin %> server start --db play.db --reset-from scenarios/payment-run/seed-0/scenario.db --issue-token hannah.brooks'];
  /** Its one line of output is JSON either way; --json is accepted so that every command takes it. */
  static override enableJsonFlag = true;
  static override flags = {
    db: Flags.string({ required: true, description: 'SQLite file to serve (created if missing)' }),
    port: Flags.integer({ default: 0, min: 0, max: 65535, description: 'agent API port (0: any free port)' }),
    'control-port': Flags.integer({ default: 0, min: 0, max: 65535, description: 'control API port (0: any free port)' }),
    host: Flags.string({ default: '127.0.0.1', description: 'interface of the agent API' }),
    'control-token': Flags.string({ env: 'ERP_CONTROL_TOKEN', description: 'bearer token of the control API (generated when absent)' }),
    'issue-token': Flags.string({ multiple: true, description: 'issue USER a token through the write path and print it under "tokens" in the JSON line, to play as USER by hand (repeatable; issued again after each reset)' }),
    'reset-from': Flags.string({ description: 'a clean database (a scenario.db): copied over --db at start and again by each POST /control/reset' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(ServerStart);
    const problem = serveProblem({ db: flags.db, resetFrom: flags['reset-from'] });
    if (problem) this.error(problem, { exit: 1 });
    await serve({ db: flags.db, port: flags.port, controlPort: flags['control-port'], host: flags.host, controlToken: flags['control-token'], resetFrom: flags['reset-from'], issueToken: flags['issue-token'] });
  }
}
