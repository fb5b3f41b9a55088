import { defineReadModel } from '../../src/projections/read-model';
import { ReadModelRegistry } from '../../src/projections/registry';
import { createAppRegistry, readModels } from '../../src/projections';

const empty = (name: string, table: string) => defineReadModel({ name, tables: [{ name: table, columns: { id: 'text' }, key: ['id'] }], handlers: [] });

describe('the read-model registry', () => {
  it('refuses a second read model under the same name', () => {
    const registry = new ReadModelRegistry().register(empty('things', 'things_a'));
    expect(() => registry.register(empty('things', 'things_b'))).toThrow('A read model named things is already registered.');
  });

  it('refuses a table claimed by two read models', () => {
    const registry = new ReadModelRegistry().register(empty('a', 'shared'));
    expect(() => registry.register(empty('b', 'shared'))).toThrow('Table shared of b already belongs to a.');
  });

  it('lists, for each application read model, the event types it handles', () => {
    const registry = createAppRegistry();
    expect(registry.list().map((m) => m.name)).toEqual(Object.values(readModels).map((m) => m.name));
    expect(registry.get('org')!.handles).toContain('UserCreated');
    expect(registry.get('id-counters')!.handles).toEqual(['*']);
  });
});
