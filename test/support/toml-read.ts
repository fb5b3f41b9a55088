/**
 * A reader for the TOML the Harbor export writes, independent of its writer: comments, `[table]`
 * and `[[array]]` headers with dotted keys, `key = value` with basic strings, integers, floats,
 * booleans, arrays and inline tables. Anything else is an error naming the line.
 */
type Value = string | number | boolean | Value[] | { [k: string]: Value };
type Table = { [k: string]: Value };

function keyPath(text: string, line: number): string[] {
  const parts: string[] = [];
  const re = /\s*(?:"((?:[^"\\]|\\.)*)"|([A-Za-z0-9_-]+))\s*(\.|$)/y;
  let m: RegExpExecArray | null;
  re.lastIndex = 0;
  while (re.lastIndex < text.length && (m = re.exec(text))) {
    parts.push(m[1] !== undefined ? (JSON.parse(`"${m[1]}"`) as string) : m[2]!);
    if (m[3] === '') break;
  }
  if (parts.length === 0 || re.lastIndex < text.length) throw new Error(`line ${line}: bad key ${text}`);
  return parts;
}

class ValueReader {
  i = 0;
  constructor(private readonly s: string, private readonly line: number) {}
  fail(what: string): never {
    throw new Error(`line ${this.line}: ${what} at ${JSON.stringify(this.s.slice(this.i, this.i + 20))}`);
  }
  ws(): void {
    while (this.s[this.i] === ' ' || this.s[this.i] === '\t') this.i++;
  }
  value(): Value {
    this.ws();
    const c = this.s[this.i];
    if (c === '"') {
      const m = /"((?:[^"\\]|\\.)*)"/y;
      m.lastIndex = this.i;
      const r = m.exec(this.s) ?? this.fail('unterminated string');
      this.i = m.lastIndex;
      return JSON.parse(r[0]) as string;
    }
    if (c === '[') {
      this.i++;
      const out: Value[] = [];
      for (;;) {
        this.ws();
        if (this.s[this.i] === ']') return this.i++, out;
        out.push(this.value());
        this.ws();
        if (this.s[this.i] === ',') this.i++;
        else if (this.s[this.i] !== ']') this.fail('expected , or ]');
      }
    }
    if (c === '{') {
      this.i++;
      const out: Table = {};
      for (;;) {
        this.ws();
        if (this.s[this.i] === '}') return this.i++, out;
        const eq = this.s.indexOf('=', this.i);
        if (eq < 0) this.fail('expected key =');
        const path = keyPath(this.s.slice(this.i, eq).trim(), this.line);
        this.i = eq + 1;
        setPath(out, path, this.value(), this.line);
        this.ws();
        if (this.s[this.i] === ',') this.i++;
        else if (this.s[this.i] !== '}') this.fail('expected , or }');
      }
    }
    const m = /true|false|[+-]?\d+(\.\d+)?([eE][+-]?\d+)?/y;
    m.lastIndex = this.i;
    const r = m.exec(this.s) ?? this.fail('bad value');
    this.i = m.lastIndex;
    return r[0] === 'true' ? true : r[0] === 'false' ? false : Number(r[0]);
  }
}

function setPath(table: Table, path: string[], value: Value, line: number): void {
  let t = table;
  for (const k of path.slice(0, -1)) t = (t[k] ??= {}) as Table;
  const last = path[path.length - 1]!;
  if (last in t) throw new Error(`line ${line}: ${path.join('.')} is defined twice`);
  t[last] = value;
}

export function readToml(text: string): Table {
  const root: Table = {};
  let current = root;
  text.split('\n').forEach((raw, k) => {
    const line = k + 1;
    const s = raw.trim();
    if (s === '' || s.startsWith('#')) return;
    const header = /^(\[\[?)(.+?)(\]\]?)$/.exec(s);
    if (header && !s.includes('=')) {
      const path = keyPath(header[2]!, line);
      let t = root;
      for (const p of path.slice(0, -1)) {
        const v = (t[p] ??= {}) as Table | Table[];
        t = Array.isArray(v) ? v[v.length - 1]! : v;
      }
      const last = path[path.length - 1]!;
      if (header[1] === '[[') {
        const arr = (t[last] ??= []) as Table[];
        if (!Array.isArray(arr)) throw new Error(`line ${line}: ${last} is not an array of tables`);
        arr.push((current = {}));
      } else {
        if (last in t) throw new Error(`line ${line}: table ${path.join('.')} is defined twice`);
        t[last] = current = {};
      }
      return;
    }
    const eq = s.indexOf('=');
    if (eq < 0) throw new Error(`line ${line}: expected key = value`);
    const reader = new ValueReader(s, line);
    reader.i = eq + 1;
    const value = reader.value();
    reader.ws();
    if (reader.i < s.length && !s.slice(reader.i).startsWith('#')) reader.fail('trailing text');
    setPath(current, keyPath(s.slice(0, eq).trim(), line), value, line);
  });
  return root;
}
