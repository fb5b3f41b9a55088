import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { satisfies } from 'semver';

/** The Node the project runs on, as package.json, .nvmrc and every installed dependency see it. */
const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const nvmrc = readFileSync(join(root, '.nvmrc'), 'utf8').trim();

/** Every installed package's name, version and engines.node, nested node_modules included. */
function installed(dir: string, out: { name: string; version: string; node?: string }[] = []) {
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.')) continue;
    const path = join(dir, name);
    if (name.startsWith('@')) {
      installed(path, out);
      continue;
    }
    const manifest = join(path, 'package.json');
    if (existsSync(manifest)) {
      const j = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; version: string; engines?: { node?: string } };
      out.push({ name: j.name, version: j.version, node: j.engines?.node });
    }
    if (existsSync(join(path, 'node_modules'))) installed(join(path, 'node_modules'), out);
  }
  return out;
}

describe('the Node version', () => {
  it('given .nvmrc, then package.json engines accepts that major and the running node is it', () => {
    expect(satisfies(`${nvmrc}.0.0`, pkg.engines.node)).toBe(true);
    expect(process.versions.node.split('.')[0]).toBe(nvmrc);
  });

  it('given the installed dependencies, then none asks for a Node that engines excludes', () => {
    const wrong = installed(join(root, 'node_modules'))
      .filter((p) => p.node !== undefined && !satisfies(process.versions.node, p.node))
      .map((p) => `${p.name}@${p.version} wants node ${p.node}`);
    expect(wrong).toEqual([]);
  });
});
