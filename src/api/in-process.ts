/** What an in-process caller gets back: the status and the body as an object (never text). */
export interface InProcessResponse {
  status: number;
  body: any;
}

/**
 * Bodies of in-process writes, built on first read. Most in-process callers never look at what
 * a write returned; the few that do (the new document's id, a match result) get exactly what an
 * HTTP caller would have got, as long as they read it before their next request. A body first
 * read after a later request would show the document as that request left it: its `id` (which
 * no later request changes) is still answered, any other field throws instead of answering with
 * something the HTTP path never said.
 */
export class InProcessViews {
  private outstanding: { sealed: boolean }[] = [];

  /** Called before each request: bodies not read by now can no longer be built faithfully. */
  sealOutstanding(): void {
    if (this.outstanding.length === 0) return;
    for (const o of this.outstanding) o.sealed = true;
    this.outstanding = [];
  }

  /** `known` holds the fields the body has whatever its view says (event_id, business_date). */
  lazy(request: string, known: Readonly<Record<string, unknown>>, build: () => object): object {
    const state = { sealed: false, built: undefined as Record<PropertyKey, unknown> | undefined };
    this.outstanding.push(state);
    const body = (): Record<PropertyKey, unknown> => {
      if (state.built === undefined) {
        if (state.sealed) throw new Error(`The response of ${request} was first read after a later request; an in-process caller reads its fields (all but id) before its next request.`);
        // The same bytes an HTTP caller would parse: no shared rows, no undefined fields.
        state.built = JSON.parse(JSON.stringify(build())) as Record<PropertyKey, unknown>;
      }
      return state.built;
    };
    return new Proxy({}, {
      get: (_t, prop) => {
        if (state.built === undefined) {
          if (typeof prop === 'string' && prop in known) return known[prop];
          if (state.sealed && prop === 'id') return (build() as { id?: unknown }).id;
        }
        return body()[prop];
      },
      has: (_t, prop) => prop in body(),
      ownKeys: () => Reflect.ownKeys(body()),
      getOwnPropertyDescriptor: (_t, prop) => {
        const d = Reflect.getOwnPropertyDescriptor(body(), prop);
        return d && { ...d, configurable: true };
      },
      set: (_t, prop, value) => Reflect.set(body(), prop, value),
      deleteProperty: (_t, prop) => Reflect.deleteProperty(body(), prop),
    });
  }
}
