import { defineReadModel, onEvery } from './read-model';

/** Per-prefix document counters (PO, REQ, ...): the last number each prefix has taken. */
export const idCounters = defineReadModel({
  name: 'id-counters',
  tables: [{ name: 'id_counters', columns: { prefix: 'text', last: 'integer' }, key: ['prefix'] }],
  handlers: [
    onEvery((tx, event) => {
      if (!event.allocated) return;
      for (const [prefix, last] of Object.entries(event.allocated)) {
        tx.upsert('id_counters', { prefix, last }, (d) => {
          d.last = Math.max(d.last as number, last);
        });
      }
    }),
  ],
  queries: (t) => ({
    last(prefix: string): number {
      return t.get<{ last: number }>('id_counters', prefix)?.last ?? 0;
    },
  }),
});
