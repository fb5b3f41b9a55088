import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { yamlCacheFile } from '../../src/task-pack/yaml-cache';
import { YamlFile } from '../../src/task-pack/yaml-file';

/** The data of a YAML text parsed before comes from the cache; where a field is still comes from the text. */
const dir = mkdtempSync(join(tmpdir(), 'bb-erp-yaml-cache-'));
const texts: string[] = [];
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const text of texts) rmSync(yamlCacheFile(text)!, { force: true });
});

let n = 0;
/** A file whose text no earlier run has cached: a number of this process and moment in a comment. */
function freshFile(body: string): { file: string; text: string } {
  const text = `# ${process.pid} ${process.hrtime.bigint()} ${++n}\n${body}`;
  const file = join(dir, `pack-${n}.yaml`);
  writeFileSync(file, text);
  texts.push(text);
  return { file, text };
}

afterEach(() => {
  delete process.env.ERP_YAML_CACHE;
});

describe('a YAML file read twice', () => {
  it('given a text parsed once, when it is read again, then its data is the cached JSON, equal to the parse', () => {
    const { file, text } = freshFile('id: pay\nchecks:\n  - id: a\n    weight: 2\n  - id: b\n    note: null\n');
    const first = YamlFile.read(file);
    const cache = yamlCacheFile(text)!;
    expect(JSON.parse(readFileSync(cache, 'utf8'))).toEqual(first.data);
    expect(YamlFile.read(file).data).toEqual(first.data);
    // What the second read answers is the cache's: a different entry for the same text shows it.
    writeFileSync(cache, JSON.stringify({ id: 'from-the-cache' }));
    expect(YamlFile.read(file).data).toEqual({ id: 'from-the-cache' });
  });

  it('given data from the cache, when a field is wrong, then the error still names its line', () => {
    const { file } = freshFile('id: pay\nchecks:\n  - id: a\n    weight: heavy\n');
    YamlFile.read(file);
    const again = YamlFile.read(file);
    const schema = Type.Object({ id: Type.String(), checks: Type.Array(Type.Object({ id: Type.String(), weight: Type.Number() })) });
    expect(() => again.check(schema, again.data)).toThrow(new RegExp(`${file}:5: checks\\[0\\]\\.weight: `));
  });

  it('given a cache entry cut short, then the text is parsed again and the entry written whole', () => {
    const { file, text } = freshFile('id: pay\nlist: [1, 2, 3]\n');
    YamlFile.read(file);
    const cache = yamlCacheFile(text)!;
    writeFileSync(cache, '{"id": "pa');
    expect(YamlFile.read(file).data).toEqual({ id: 'pay', list: [1, 2, 3] });
    expect(JSON.parse(readFileSync(cache, 'utf8'))).toEqual({ id: 'pay', list: [1, 2, 3] });
  });

  it('given data JSON would change, then nothing is cached', () => {
    const { file, text } = freshFile('id: pay\nlimit: .inf\n');
    expect(YamlFile.read(file).data).toEqual({ id: 'pay', limit: Infinity });
    expect(existsSync(yamlCacheFile(text)!)).toBe(false);
  });

  it('given ERP_YAML_CACHE=0, then nothing is read from or written to the cache', () => {
    process.env.ERP_YAML_CACHE = '0';
    const { file, text } = freshFile('id: pay\n');
    expect(yamlCacheFile(text)).toBeUndefined();
    expect(YamlFile.read(file).data).toEqual({ id: 'pay' });
    delete process.env.ERP_YAML_CACHE;
    expect(existsSync(yamlCacheFile(text)!)).toBe(false);
  });
});
