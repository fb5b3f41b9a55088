import { Command } from '@oclif/core';
import { requestOutcome } from '../client/agent-cli';
import { finish } from '../client/agent-command';

export default class Whoami extends Command {
  static override summary = 'Who you are signed in as: user, roles, permissions, approval limits, message boxes and the business date.';
  static override enableJsonFlag = true;
  static override examples = ['<%= config.bin %> whoami'];

  async run(): Promise<void> {
    await this.parse(Whoami);
    finish(await requestOutcome('GET', '/whoami', {}));
  }
}
