import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { knownSchemas, precompileValidators } from '../../src/build/precompile-validators';
import { payloadAjv, queryAjv } from '../../src/events/json-schema';
import { validatorKey } from '../../src/events/validators';
import { packageRoot } from '../../src/package-info';

/** Inputs every validator is tried on: the precompiled one must say what the compiled one says. */
const SAMPLES: unknown[] = [
  {}, null, 'x', 3, [], { id: 'X' }, { amount: '12.345' }, { amount: 12.34 }, { amount: '12.34' }, { date: '2026-13-01' }, { limit: '5' }, { to: '2026-10-05' },
];

describe('validators written out at build time', () => {
  const cache = join(packageRoot(), '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'validators-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('cover every known schema and validate exactly as the schemas compiled at run time', () => {
    const n = precompileValidators(join(dir, 'out'));
    const files = new Set(readdirSync(join(dir, 'out')));
    expect(files.size).toBe(n);
    for (const { kind, schema, what } of knownSchemas()) {
      const file = `${validatorKey(kind, schema)}.js`;
      expect(files.has(file)).toBe(true);
      const precompiled = require(join(dir, 'out', file)) as (data: unknown) => boolean;
      const compiled = (kind === 'query' ? queryAjv() : payloadAjv()).compile(schema);
      for (const sample of SAMPLES) {
        const a = structuredClone(sample);
        const b = structuredClone(sample);
        const verdicts = [precompiled(a), compiled(b)];
        const errors = [(precompiled as unknown as { errors: unknown }).errors, compiled.errors];
        expect({ what, sample, verdict: verdicts[0], errors: errors[0], coerced: a }).toEqual({ what, sample, verdict: verdicts[1], errors: errors[1], coerced: b });
      }
    }
  });

  it('refuse a third decimal of money and accept two, as the API promises', () => {
    const money = { type: 'object', properties: { amount: { type: ['number', 'string'], 'x-money': true } } };
    const validate = payloadAjv().compile(money);
    expect([validate({ amount: '1.23' }), validate({ amount: 1.2 }), validate({ amount: '1.234' }), validate({ amount: 1.234 }), validate({ amount: '1e3' })]).toEqual([true, true, false, false, false]);
  });
});

describe('a process whose validators were all written out at build time', () => {
  it('given the built package, when it validates a clock move and a list query, then it never loads ajv\'s compiler', () => {
    const script = [
      "const { validatorFor } = require('./dist/src/events/validators');",
      "const { advanceClock } = require('./dist/src/domain/clock/actions');",
      "const ok = validatorFor('payload', advanceClock.body)({ to: '2026-10-05' }) && !validatorFor('payload', advanceClock.body)({ to: 5 });",
      "const compiler = Object.keys(require.cache).filter((f) => /node_modules\\/ajv\\/dist\\/(core|2020|compile)/.test(f));",
      'process.stdout.write(JSON.stringify({ ok, compiler }));',
    ].join('\n');
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: packageRoot(), encoding: 'utf8' }));
    expect(out).toEqual({ ok: true, compiler: [] });
  });
});
