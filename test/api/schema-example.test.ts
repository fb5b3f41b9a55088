import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { exampleOf, patternExample } from '../../src/api/schema-example';

describe('examples built from schemas', () => {
  it('writes the smallest string a route pattern accepts', () => {
    expect(patternExample('^[a-z][a-z0-9_]*$')).toBe('a');
    expect(patternExample('^-?\\d+(\\.\\d{1,2})?$')).toBe('1');
    expect(patternExample('^[A-Z][A-Z0-9]*-[0-9]+(\\.[0-9]+)*$')).toBe('A-0');
    expect(patternExample('^(draft|sent)$')).toBe('draft');
    expect(patternExample('^a(?=b)')).toBeUndefined();
  });

  it('gives a value the schema accepts: required fields, bounds, formats, references, unions', () => {
    const components = { Status: { type: 'string', enum: ['open', 'closed'] } };
    const schema = {
      type: 'object', required: ['id', 'date', 'qty', 'status', 'lines', 'note'],
      properties: {
        id: { type: 'string', pattern: '^PO-[0-9]{4}$' }, date: { type: 'string', format: 'date' }, qty: { type: 'integer', minimum: 5 },
        status: { $ref: '#/components/schemas/Status' }, lines: { type: 'array', minItems: 2, items: { type: 'object', required: ['n'], properties: { n: { type: 'number', exclusiveMinimum: 0 } } } },
        note: { anyOf: [{ type: 'null' }, { type: 'string', minLength: 3 }] }, optional: { type: 'string' },
      },
    };
    const example = exampleOf(schema, components);
    expect(example).toEqual({ id: 'PO-0000', date: '2026-10-05', qty: 5, status: 'open', lines: [{ n: 1 }, { n: 1 }], note: 'text' });
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    expect(ajv.validate({ ...schema, components: { schemas: components } }, example)).toBe(true);
  });

  it('gives none when a pattern is beyond what it reads', () => {
    expect(exampleOf({ type: 'object', required: ['x'], properties: { x: { type: 'string', pattern: '^(?!no)' } } })).toBeUndefined();
  });
});
