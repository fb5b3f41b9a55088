import { Help } from '@oclif/core';

/**
 * Root help lists the agent commands first (what an agent needs), then the operator topics.
 */
export default class ErpHelp extends Help {
  protected override async showRootHelp(): Promise<void> {
    this.log(this.formatRoot());
    this.log('');
    const commands = this.sortedCommands.filter((c) => c.id && !c.id.includes(':'));
    const topics = this.sortedTopics.filter((t) => !t.name.includes(':'));
    if (commands.length > 0) {
      this.log(this.formatCommands(commands).replace(/^COMMANDS/, 'AGENT COMMANDS'));
      this.log('');
    }
    if (topics.length > 0) {
      this.log(this.formatTopics(topics).replace(/^TOPICS/, 'OPERATOR TOPICS'));
      this.log('');
    }
  }
}
