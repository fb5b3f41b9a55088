import { readFileSync } from 'node:fs';
import { configFromEnv, runTurn } from './agent';
import { mcpTools } from './tools';

/**
 * The reference LLM agent (`--agent llm:<model>`), run by the runner as a command agent in the
 * sandbox: its last argument is the prompt file, its settings the BB_LLM_* variables, its tools
 * those of `erp mcp`. Its stdout is the turn's transcript, one JSON line per model and tool call.
 */
/** The exit status of a turn whose model could not be reached (EX_TEMPFAIL); its transcript's end line says why. */
const PROVIDER_FAILED = 75;

async function main(argv: readonly string[]): Promise<number> {
  const promptFile = argv[argv.length - 1];
  if (!promptFile) {
    process.stderr.write('usage: llm-agent PROMPT_FILE (settings from BB_LLM_API, BB_LLM_BASE_URL, BB_LLM_MODEL, BB_LLM_API_KEY, ...)\n');
    return 2;
  }
  const config = configFromEnv(process.env);
  const tools = await mcpTools(process.cwd(), process.env);
  try {
    const reached = await runTurn(config, tools, readFileSync(promptFile, 'utf8'), (line) => process.stdout.write(JSON.stringify(line) + '\n'));
    return reached ? 0 : PROVIDER_FAILED;
  } finally {
    await tools.close();
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code), (err: Error) => {
  process.stderr.write(`llm-agent: ${err.message}\n`);
  process.exit(1);
});
