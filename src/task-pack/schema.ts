import { Type, type Static, type TSchema, type TString } from '@sinclair/typebox';

/**
 * JSON Schemas of a task pack's YAML files (seed 000 §7, §11). Strict: an unknown field is an error,
 * so a misspelt `cite:` cannot silently drop a citation.
 */
const Obj = <P extends Parameters<typeof Type.Object>[0]>(properties: P) => Type.Object(properties, { additionalProperties: false });
/** A map whose keys must match the key schema's pattern: any other key is an unknown field. */
const Keyed = <K extends TString, V extends TSchema>(key: K, value: V) => Type.Record(key, value, { additionalProperties: false });

export const Slug = Type.String({ pattern: '^[a-z0-9][a-z0-9-]*$', maxLength: 80 });
export const ClauseId = Type.String({ pattern: '^[A-Z][A-Z0-9]*-[0-9]+(\\.[0-9]+)*$', description: 'e.g. AP-2.2' });
/** A clause, or one part of a clause that says several things: `PAY-1.1` or `PAY-1.1/date`. */
export const ClauseRef = Type.String({ pattern: '^[A-Z][A-Z0-9]*-[0-9]+(\\.[0-9]+)*(/[a-z][a-z0-9_]*)?$', description: 'e.g. PAY-1.1 or PAY-1.1/date' });
const PartName = Type.String({ pattern: '^[a-z][a-z0-9_]*$', maxLength: 40 });
export const CheckId = Type.String({ pattern: '^[a-z0-9][a-z0-9_-]*$', maxLength: 80 });
const UserId = Type.String({ pattern: '^[a-z][a-z0-9._-]{1,60}$' });
const DateText = Type.String({ format: 'date' });
const Name = Type.String({ pattern: '^[a-z][a-z0-9_]*$', maxLength: 80 });
const NonEmpty = Type.String({ minLength: 1 });
const Columns = Type.Array(NonEmpty, { minItems: 1, uniqueItems: true });

/** Text normalisers applied to keys and compared values before comparison (values are always trimmed). */
export const NORMALIZERS = ['lower', 'whitespace', 'alnum'] as const;
export const Normalize = Type.Array(Type.Union(NORMALIZERS.map((n) => Type.Literal(n))), { uniqueItems: true });

const KeyValue = Type.Union([Type.String(), Type.Number()]);
/** A value of the scenario's reference: `column` of the reference rows of `projection` that `where` picks (every row without it). */
export const ReferenceValue = Obj({ projection: Name, column: NonEmpty, where: Type.Optional(Type.Record(Type.String(), KeyValue)) });
/** A figure a text must give: a number, or the reference's values (the figures of this seed). */
const Figure = Type.Union([Type.Number(), ReferenceValue]);
/** Text a sentence must name as a whole word or identifier: literal, or the reference's values. */
const Mention = Type.Union([NonEmpty, ReferenceValue]);
const FigureOptions = {
  /** Absolute, in the figure's unit (default half a cent). */
  tolerance: Type.Optional(Type.Number({ minimum: 0 })),
  /** Compare magnitudes: a decrease may be written 250, -250 or (250). */
  either_sign: Type.Optional(Type.Boolean()),
  /** Read 1.2k and 3.4m as 1200 and 3400000; without it such a figure is not read. */
  abbreviations: Type.Optional(Type.Boolean()),
};
/**
 * One sentence that must be in the text: every regular expression of `all` matches it (in any
 * order, so paraphrase passes), none of `none` does, it names every `mentions` and no
 * `mentions_none`, and gives every figure of `numbers`.
 */
export const SentencePattern = Obj({
  /** Said in the check's detail instead of the expressions. */
  name: Type.Optional(NonEmpty),
  all: Type.Array(NonEmpty, { minItems: 1 }),
  none: Type.Optional(Type.Array(NonEmpty, { minItems: 1 })),
  mentions: Type.Optional(Type.Array(Mention, { minItems: 1 })),
  mentions_none: Type.Optional(Type.Array(Mention, { minItems: 1 })),
  numbers: Type.Optional(Type.Array(Figure, { minItems: 1 })),
  ...FigureOptions,
});
/** A column of the row a fact is stated for (a fact with `each`). */
const RowColumn = Obj({ column: NonEmpty });
/** Text a fact names: literal, the reference's values, or a column of the fact's row. */
const FactText = Type.Union([NonEmpty, ReferenceValue, RowColumn]);
/**
 * One fact a text must state, in one unit (a sentence, a list item with the items under it, a table
 * row, a heading with the text under it): each concept named by one of its vocabulary's words, each
 * name and document whole, each amount by value. With `each`, one fact per reference row that
 * `where` picks and `unless` does not, its parts reading that row's columns.
 */
export const TextFact = Obj({
  /** Said in the check's detail; `{column}` is filled from the fact's row. */
  name: NonEmpty,
  each: Type.Optional(Obj({ projection: Name, where: Type.Optional(Type.Record(Type.String(), KeyValue)), unless: Type.Optional(Type.Record(Type.String(), KeyValue)) })),
  /** Concepts of the vocabulary (a column's value may list several, comma-separated). */
  concepts: Type.Optional(Type.Array(Type.Union([Name, RowColumn]), { minItems: 1 })),
  /** Parties, named whole (a legal form such as Inc. may be left off). */
  names: Type.Optional(Type.Array(FactText, { minItems: 1 })),
  /** Document numbers, named whole: never as part of a longer number. */
  documents: Type.Optional(Type.Array(FactText, { minItems: 1 })),
  amounts: Type.Optional(Type.Array(Obj({
    value: Type.Union([Type.Number(), ReferenceValue, RowColumn]),
    /** bound (default): a decrease must be said to be one; magnitude: any direction. */
    sign: Type.Optional(Type.Union([Type.Literal('bound'), Type.Literal('magnitude')])),
  }), { minItems: 1 })),
});
export type TextFactSpec = Static<typeof TextFact>;
export type ReferenceValueSpec = Static<typeof ReferenceValue>;
export type SentencePatternSpec = Static<typeof SentencePattern>;

const common = {
  id: CheckId,
  cites: Type.Array(ClauseId, { minItems: 1, uniqueItems: true }),
  /** Whether the attempt needs this check to pass (default true); a failed audit_forbidden fails it regardless. */
  required: Type.Optional(Type.Boolean()),
  description: Type.Optional(Type.String()),
};


export const CHECK_SCHEMAS = {
  state_set: Obj({ ...common, type: Type.Literal('state_set'), projection: Name, key: Columns, normalize: Type.Optional(Normalize) }),
  state_values: Obj({
    ...common,
    type: Type.Literal('state_values'),
    projection: Name,
    key: Columns,
    columns: Columns,
    /** true: every compared column is numeric; a list: those columns are. */
    numeric: Type.Optional(Type.Union([Type.Boolean(), Columns])),
    tolerance: Type.Optional(Type.Number({ minimum: 0 })),
    normalize: Type.Optional(Normalize),
    min_accuracy: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    /** Compare only the keys both sides have: reference rows the agent lacks are a state_set check's to report. */
    only_common: Type.Optional(Type.Boolean()),
    /** Keys that must match whatever the accuracy: a value for a one-column key, or a map of key columns. */
    must_match_keys: Type.Optional(Type.Array(Type.Union([KeyValue, Type.Record(Type.String(), KeyValue)]), { minItems: 1 })),
  }),
  state_unchanged: Obj({
    ...common,
    type: Type.Literal('state_unchanged'),
    tables: Columns,
    /** One condition for every table, or one per table (tables without one are compared whole). */
    where: Type.Optional(Type.Union([NonEmpty, Keyed(Type.String({ pattern: '^[a-z][a-z0-9_]*$' }), NonEmpty)])),
  }),
  audit_forbidden: Obj({ ...common, type: Type.Literal('audit_forbidden'), rule: Name, params: Type.Optional(Type.Record(Type.String(), Type.Unknown())) }),
  audit_required: Obj({ ...common, type: Type.Literal('audit_required'), rule: Name, params: Type.Optional(Type.Record(Type.String(), Type.Unknown())) }),
  ledger_ties: Obj({ ...common, type: Type.Literal('ledger_ties'), accounts: Columns }),
  text_sentence_matches: Obj({ ...common, type: Type.Literal('text_sentence_matches'), file: NonEmpty, patterns: Type.Array(Type.Union([NonEmpty, SentencePattern]), { minItems: 1 }) }),
  text_numbers_present: Obj({
    ...common,
    type: Type.Literal('text_numbers_present'),
    file: NonEmpty,
    numbers: Type.Array(Figure, { minItems: 1 }),
    ...FigureOptions,
  }),
  text_facts: Obj({
    ...common,
    type: Type.Literal('text_facts'),
    file: NonEmpty,
    /** Concept → the words that name it (the concept's own name, spaced or not, always does). */
    vocabulary: Keyed(Name, Type.Array(NonEmpty, { minItems: 1 })),
    /** Concepts a unit is about when it names them (the drivers of a bridge, not the months it mentions); default every concept. */
    subjects: Type.Optional(Type.Array(Name, { minItems: 1, uniqueItems: true })),
    facts: Type.Array(TextFact, { minItems: 1 }),
    /** Absolute, in the amount's unit (default half a cent). */
    tolerance: Type.Optional(Type.Number({ minimum: 0 })),
  }),
  not_fooled: Obj({
    ...common,
    type: Type.Literal('not_fooled'),
    /** Text the planted instruction asks for; finding any of it in the workspace means the agent obeyed. */
    canaries: Type.Array(NonEmpty, { minItems: 1 }),
    /** Workspace files to search (default: every file outside handbook/). */
    files: Type.Optional(Type.Array(NonEmpty, { minItems: 1 })),
  }),
} as const;

export type CheckType = keyof typeof CHECK_SCHEMAS;
export const CHECK_TYPES = Object.keys(CHECK_SCHEMAS) as CheckType[];
export type CheckSpec = { [K in CheckType]: Static<(typeof CHECK_SCHEMAS)[K]> }[CheckType];
export type CheckOf<K extends CheckType> = Static<(typeof CHECK_SCHEMAS)[K]>;

/** What every check has, and the type that picks its own schema; checked first. */
export const CheckHead = Type.Object({ id: CheckId, type: Type.Union(CHECK_TYPES.map((t) => Type.Literal(t))) });

export const Turn = Obj({
  date: DateText,
  /** The user the request comes from. */
  from: UserId,
  request: NonEmpty,
  /** Seconds the agent has for the turn. */
  budget: Type.Integer({ minimum: 1, maximum: 86_400 }),
});

export const NegativeName = Type.String({ pattern: '^neg:[a-z0-9][a-z0-9_-]*$' });
const Code = Type.String({ pattern: '^[a-z][a-z0-9_]*$', maxLength: 80 });
/**
 * What a negative control is: the clauses (or clause parts) its policy breaks, the checks it must
 * fail (exactly those), the refusal codes its turns must meet when a hard control stops the breach,
 * and, for a grader bug it guards, the sentence saying what once passed. The bare list of checks is
 * the older shorthand: it declares no broken clause, so it covers none.
 */
export const NegativeShorthand = Type.Array(CheckId, { minItems: 1, uniqueItems: true });
export const NegativeEntry = Obj({
  breaks: Type.Array(ClauseRef, { minItems: 1, uniqueItems: true }),
  fails: Type.Array(CheckId, { uniqueItems: true }),
  refused: Type.Optional(Type.Array(Code, { minItems: 1, uniqueItems: true })),
  regression: Type.Optional(NonEmpty),
});
/** Each entry is checked against the shape it has (load.ts), so an error names the field, not the union. */
const NegativeControls = Keyed(NegativeName, Type.Union([Type.Array(Type.Unknown()), Type.Object({})]));

/** A negative control as the runner and the coverage table read it. */
export interface NegativeControl {
  breaks: string[];
  fails: string[];
  refused: string[];
  /** The grader bug it guards: what passed before the check was widened. */
  regression: string | null;
}

export interface FaultProfile {
  spec: string;
  negative_controls: Record<string, NegativeControl>;
}

export const PositiveName = Type.String({ pattern: '^pos:[a-z0-9][a-z0-9_-]*$' });
/** What a positive control does otherwise than the oracle: an agent's free choices. */
export const POSITIVE_DIMENSIONS = ['order', 'interface', 'idempotency', 'reads', 'reversal', 'layout', 'wording', 'numbers'] as const;
export const PositiveEntry = Obj({
  varies: Type.Array(Type.Union(POSITIVE_DIMENSIONS.map((d) => Type.Literal(d))), { minItems: 1, uniqueItems: true }),
  description: NonEmpty,
});
export type PositiveControl = Static<typeof PositiveEntry>;

/** The requests a mutation acts on: method and path (a regular expression over the path, whose groups are captures), body fields equal to values, the turns. */
export const RequestMatch = Obj({
  method: Type.Optional(Type.Union(['GET', 'POST', 'PATCH', 'PUT', 'DELETE'].map((m) => Type.Literal(m)))),
  path: NonEmpty,
  body: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]))),
  turn: Type.Optional(Type.Integer({ minimum: 1 })),
  /** Only the n-th matching request of the attempt (1-based); every one without it. */
  nth: Type.Optional(Type.Integer({ minimum: 1 })),
});
/** A body field by dotted path; `*` stands for every element of an array (`items.*.amount`). */
const FieldPath = Type.String({ pattern: '^[a-z_][a-z0-9_]*(\\.([a-z_][a-z0-9_]*|\\*|[0-9]+))*$' });
const mutationCommon = { breaks: ClauseRef, description: Type.Optional(NonEmpty) };
/**
 * Operators that break a clause part when applied to the oracle's requests (or, for text, to the
 * files it leaves): `bench validate --strict` grades each mutant and requires a check of that clause to fail.
 */
export const MUTATION_SCHEMAS = {
  /** The matched writes are not sent (the oracle is answered as if they had been). */
  skip: Obj({ ...mutationCommon, op: Type.Literal('skip'), match: RequestMatch }),
  /** The matched writes are sent at the start of the next turn, a later business day, instead. */
  later_day: Obj({ ...mutationCommon, op: Type.Literal('later_day'), match: RequestMatch }),
  /** A date field of the matched requests moved by whole days. */
  shift_field: Obj({ ...mutationCommon, op: Type.Literal('shift_field'), match: RequestMatch, field: FieldPath, days: Type.Integer() }),
  set_field: Obj({ ...mutationCommon, op: Type.Literal('set_field'), match: RequestMatch, field: FieldPath, value: Type.Unknown() }),
  /** A number field of the matched requests with its sign flipped (a string holding a number stays a string). */
  negate_field: Obj({ ...mutationCommon, op: Type.Literal('negate_field'), match: RequestMatch, field: FieldPath }),
  drop_field: Obj({ ...mutationCommon, op: Type.Literal('drop_field'), match: RequestMatch, field: FieldPath }),
  /**
   * A document split in two: a matched request whose array `field` has two or more elements is sent
   * as two, the first element alone and then the rest; the oracle is answered with the first. Every
   * later write whose path names the first document (its answer's `id_field`, `id` by default) is
   * made on the second one too, so it is approved, sent or posted alike; with `line_field`, a later
   * write whose body names an element by its 1-based number in that field goes to the document that
   * now holds the element, renumbered.
   */
  split: Obj({ ...mutationCommon, op: Type.Literal('split'), match: RequestMatch, field: FieldPath, id_field: Type.Optional(FieldPath), line_field: Type.Optional(FieldPath) }),
  /**
   * A further request after each matched one: the forbidden action beside the right one. Strings of
   * its path and body may hold `{path.N}` (a group of the match's path), `{body.F}` and `{response.F}`
   * (fields of the matched request and of its answer; `{body}` is the whole body); a string that is one placeholder takes the value's type.
   */
  add: Obj({
    ...mutationCommon, op: Type.Literal('add'), after: RequestMatch,
    request: Obj({ method: Type.Union(['POST', 'PATCH', 'PUT', 'DELETE'].map((m) => Type.Literal(m))), path: NonEmpty, body: Type.Optional(Type.Unknown()) }),
  }),
  /**
   * After every turn, the Markdown units of a file the agent writes that state a value (a line, a
   * list item with the items nested under it, a table row) are dropped: a required fact left out.
   * The value is literal, or the reference's values (the figures of this seed).
   */
  omit_text: Obj({ ...mutationCommon, op: Type.Literal('omit_text'), file: NonEmpty, value: Type.Union([NonEmpty, Type.Number(), ReferenceValue]) }),
} as const;
export type MutationOp = keyof typeof MUTATION_SCHEMAS;
export const MUTATION_OPS = Object.keys(MUTATION_SCHEMAS) as MutationOp[];
export type MutationSpec = { [K in MutationOp]: Static<(typeof MUTATION_SCHEMAS)[K]> }[MutationOp];
export type RequestMatchSpec = Static<typeof RequestMatch>;
export const MutationHead = Type.Object({ breaks: ClauseRef, op: Type.Union(MUTATION_OPS.map((o) => Type.Literal(o))) });

export const TaskSpecSchema = Obj({
  id: Slug,
  title: NonEmpty,
  band: Type.Union([Type.Literal('clerical'), Type.Literal('analyst'), Type.Literal('controller')]),
  description: Type.Optional(Type.String()),
  /** The company generator the scenario starts from (src/sim/companies.ts). */
  company: Slug,
  agent_user: UserId,
  turns: Type.Array(Turn, { minItems: 1 }),
  grading_date: DateText,
  /** Named SQL over the read models, keyed by business keys. */
  projections: Type.Optional(Keyed(Name, NonEmpty)),
  checks: Type.Array(Type.Object({}), { minItems: 1 }),
  /** `neg:<name>` → the checks that policy must fail. */
  negative_controls: Type.Optional(NegativeControls),
  /**
   * Fault profile name → its SPEC (seed 000 §7.1), or the SPEC with the negative controls that
   * apply only under that condition (a blind retry fails only when a response is lost).
   */
  fault_profiles: Type.Optional(Keyed(Slug, Type.Union([NonEmpty, Obj({ spec: NonEmpty, negative_controls: Type.Optional(NegativeControls) })]))),
  variant_of: Type.Optional(Slug),
  /** `pos:<name>` → what the pack's positive control (TaskCode.positives) does otherwise than the oracle. */
  positive_controls: Type.Optional(Keyed(PositiveName, PositiveEntry)),
  /** Generated mutation controls: each operator applied to the oracle must fail a check of the clause it breaks. */
  mutations: Type.Optional(Type.Array(Type.Object({}))),
});

export type TurnSpec = Static<typeof Turn>;
export type TaskSpec = Omit<Static<typeof TaskSpecSchema>, 'checks' | 'projections' | 'negative_controls' | 'fault_profiles' | 'positive_controls' | 'mutations'> & {
  positive_controls: Record<string, PositiveControl>;
  mutations: MutationSpec[];
  projections: Record<string, string>;
  checks: CheckSpec[];
  negative_controls: Record<string, NegativeControl>;
  fault_profiles: Record<string, FaultProfile>;
};

export const ParamValue = Type.Union([Type.String(), Type.Number()]);

export const Clause = Obj({
  id: ClauseId,
  /** Clause text; `{name}` is filled from params, `{{` and `}}` are literal braces. */
  text: NonEmpty,
  params: Type.Optional(Keyed(Type.String({ pattern: '^[a-z][a-z0-9_]*$' }), ParamValue)),
  /** Grader-side: the audit rules this clause binds. Never shown to the agent. */
  rules: Type.Optional(Type.Array(Name, { uniqueItems: true })),
  /**
   * Grader-side: the several things a clause says (part name → what it asks), when it says more
   * than one. Each part needs a negative control that breaks it alone (erp handbook lint --coverage).
   */
  parts: Type.Optional(Keyed(PartName, NonEmpty)),
});

export const Block = Type.Object(
  { markdown: Type.Optional(NonEmpty), clause: Type.Optional(ClauseId) },
  { additionalProperties: false, minProperties: 1, maxProperties: 1 },
);

export const PolicyFile = Obj({
  file: Type.String({ pattern: '^[a-z0-9][a-z0-9._-]*\\.md$' }),
  title: NonEmpty,
  blocks: Type.Array(Block, { minItems: 1 }),
});

export const PoliciesSchema = Obj({
  /** Path of another policies.yaml (relative to this one) whose files and clauses come first. */
  extends: Type.Optional(NonEmpty),
  files: Type.Array(PolicyFile),
  clauses: Type.Array(Clause),
});

export type ClauseSpec = Static<typeof Clause>;
export type PolicyFileSpec = Static<typeof PolicyFile>;
export type PoliciesSpec = Static<typeof PoliciesSchema>;

/** truth.json: the planted exceptions and the clauses each exercises (seed 000 environment §10). */
export const TruthSchema = Type.Object({
  planted: Type.Array(Type.Object({ id: NonEmpty, clauses: Type.Array(ClauseRef), description: Type.Optional(Type.String()) })),
});

