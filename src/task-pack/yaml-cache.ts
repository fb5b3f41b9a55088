import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { packageRoot } from '../package-info';

/**
 * The data of YAML texts parsed before, as JSON, by the SHA-256 of the text and the parser's
 * version: every attempt's process reads its pack's task.yaml and policies.yaml, and the YAML
 * parser, cold in each process, took 60-80 ms for them where JSON takes well under one. Only data
 * JSON carries unchanged is kept. ERP_YAML_CACHE=0 turns it off; the folder is .cache/yaml under
 * the package, which no agent's sandbox mounts.
 */
const FORMAT = 1;

/** Where the data of `text` is kept; undefined when the cache is off. */
export function yamlCacheFile(text: string): string | undefined {
  if (process.env.ERP_YAML_CACHE === '0') return undefined;
  const version = (require('yaml/package.json') as { version: string }).version;
  const key = createHash('sha256').update(`${FORMAT}\n${version}\n`).update(text).digest('hex');
  return join(packageRoot(), '.cache', 'yaml', `${key}.json`);
}

/** The data parsed before from exactly this text, or undefined. */
export function cachedYamlData(text: string): { data: unknown } | undefined {
  const file = yamlCacheFile(text);
  if (!file) return undefined;
  let stored: string;
  try {
    stored = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return { data: JSON.parse(stored) as unknown };
  } catch {
    // A file cut short by a crash: parsed again, and written whole.
    return undefined;
  }
}

/** Keeps the data parsed from `text`, when JSON holds it unchanged; a cache that cannot be written is skipped. */
export function rememberYamlData(text: string, data: unknown): void {
  const file = yamlCacheFile(text);
  if (!file) return;
  const json = JSON.stringify(data);
  if (json === undefined || !isDeepStrictEqual(JSON.parse(json), data)) return;
  try {
    mkdirSync(join(file, '..'), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, json);
    renameSync(tmp, file);
  } catch {
    // A read-only package: every read parses.
  }
}
