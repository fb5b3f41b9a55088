import { Help } from '@oclif/core';

/**
 * Root help lists the agent commands first (what an agent needs), then the operator topics, then
 * what the oclif plugins add (help, shell completion).
 */
export default class ErpHelp extends Help {
  protected override async showRootHelp(): Promise<void> {
    this.log(this.formatRoot());
    this.log('');
    const topLevel = this.sortedCommands.filter((c) => c.id && !c.id.includes(':'));
    const own = topLevel.filter((c) => c.pluginName === this.config.name);
    const plugins = topLevel.filter((c) => c.pluginName !== this.config.name);
    const topics = this.sortedTopics.filter((t) => !t.name.includes(':'));
    if (own.length > 0) {
      this.log(this.formatCommands(own).replace(/^COMMANDS/, 'AGENT COMMANDS'));
      this.log('');
    }
    if (topics.length > 0) {
      this.log(this.formatTopics(topics).replace(/^TOPICS/, 'OPERATOR TOPICS'));
      this.log('');
    }
    if (plugins.length > 0) {
      this.log(this.formatCommands(plugins).replace(/^COMMANDS/, 'MORE COMMANDS'));
      this.log('');
    }
  }
}
