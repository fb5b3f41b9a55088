import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Metafile } from 'esbuild';
import { packageRoot, packageVersion } from '../package-info';

/**
 * dist/erp-client.cjs: the agent commands bundled into one file that needs nothing but node. It is
 * the `erp` inside an agent's sandbox, and a contract other tools rely on (the CLI start-time
 * benchmark, the sample): keep the path.
 */
export const CLIENT_BUNDLE = join('dist', 'erp-client.cjs');

/** A self-contained file built from one entry, and the only sources it may draw from. */
export interface BundleSpec {
  file: string;
  entry: string;
  /** Source folders of the package it may hold; never the ERP, the tasks or the grader. */
  sources: readonly string[];
  /** Whether it may hold third-party packages (the MCP SDK, the OpenAI client). */
  packages: boolean;
}

/**
 * The agent's side of the package, each a file that runs with node alone: the client (lean: no
 * package, so the commands an agent calls hundreds of times a turn start fast), the MCP server
 * `erp mcp` loads from beside it, and the reference LLM agent.
 */
export const BUNDLES = {
  client: { file: CLIENT_BUNDLE, entry: 'src/client/main.ts', sources: ['src/client/'], packages: false },
  mcp: { file: join('dist', 'erp-mcp.cjs'), entry: 'src/client/mcp/main.ts', sources: ['src/client/'], packages: true },
  llm: { file: join('dist', 'llm-agent.cjs'), entry: 'src/agents/llm/main.ts', sources: ['src/agents/llm/', 'src/client/'], packages: true },
} as const satisfies Record<string, BundleSpec>;

export type BundleName = keyof typeof BUNDLES;

/** The files `erp` is made of inside a sandbox: the client and the MCP server beside it. */
export const CLIENT_FILES: readonly BundleName[] = ['client', 'mcp'];

export function bundlePath(name: BundleName): string {
  return join(packageRoot(), BUNDLES[name].file);
}

export function clientBundlePath(): string {
  return bundlePath('client');
}

/**
 * Bundles one entry with esbuild (a build-time dependency, loaded only here). Returns the
 * metafile, whose inputs name every module inside; `write: false` builds without writing.
 */
export async function buildBundle(name: BundleName, options: { outFile?: string; write?: boolean } = {}): Promise<{ metafile: Metafile; bytes: number }> {
  // require, not import(): a build-time dependency, loaded only when bundling (and jest runs CommonJS).
  const { build } = require('esbuild') as typeof import('esbuild');
  const root = packageRoot();
  const spec = BUNDLES[name];
  const outFile = options.outFile ?? join(root, spec.file);
  const result = await build({
    absWorkingDir: root,
    entryPoints: [spec.entry],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    legalComments: 'none',
    metafile: true,
    write: false,
    outfile: outFile,
    logLevel: 'silent',
    define: { BB_ERP_VERSION: JSON.stringify(packageVersion()) },
  });
  const code = result.outputFiles[0]!.contents;
  if (options.write ?? true) {
    mkdirSync(dirname(outFile), { recursive: true });
    writeFileSync(outFile, code);
    chmodSync(outFile, 0o644);
  }
  return { metafile: result.metafile, bytes: code.length };
}

/** The client bundle (kept for the callers that build only it). */
export function buildClientBundle(options: { outFile?: string; write?: boolean } = {}): Promise<{ metafile: Metafile; bytes: number }> {
  return buildBundle('client', options);
}

/** Inputs of a bundle it may not hold: package sources outside its folders, or packages when it may have none. Empty when it is clean. */
export function foreignInputs(metafile: Metafile, name: BundleName = 'client'): string[] {
  const spec: BundleSpec = BUNDLES[name];
  return Object.keys(metafile.inputs).filter((f) => (f.startsWith('node_modules/') ? !spec.packages : !spec.sources.some((dir) => f.startsWith(dir)))).sort();
}

async function buildAll(): Promise<void> {
  for (const name of Object.keys(BUNDLES) as BundleName[]) {
    const { metafile, bytes } = await buildBundle(name);
    const foreign = foreignInputs(metafile, name);
    if (foreign.length) throw new Error(`${BUNDLES[name].file} draws on modules it may not hold: ${foreign.join(', ')}.`);
    process.stdout.write(`${BUNDLES[name].file}: ${Object.keys(metafile.inputs).length} modules, ${(bytes / 1024).toFixed(0)} KiB\n`);
  }
}

if (require.main === module) {
  buildAll().catch((err: Error) => {
    process.stderr.write(`${err.message}\n`);
    process.exitCode = 1;
  });
}
