// Valid values of a JSON schema of the document as fast-check arbitraries: types, enums, formats
// (uuid, date-time, date, email), patterns, bounds, required and optional properties, oneOf branches.
// Hints mix in values that reach the handlers (real ids and codes, names the server accepts).
import fc from 'fast-check';
import { component, refName, type Schema } from './contract.ts';

/** A hint's value for an optional property: leave the property out. */
export const OMIT = Symbol('omit');

/** Receives what the schema alone gives, answers what to generate instead (usually a mix of both). */
export type Hint = (generic: fc.Arbitrary<unknown>) => fc.Arbitrary<unknown>;
/**
 * Hints by place: a component schema's name ('UserNameInput'), a property of one ('UpdateUserRequest.metadata'),
 * a component parameter ('parameters.UserId') or an inline parameter ('path.code', 'query.organizationId').
 */
export type Hints = Record<string, Hint>;

const HANDLED = new Set(['$ref', 'type', 'enum', 'const', 'format', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems', 'items', 'properties', 'required', 'additionalProperties', 'oneOf']);
const ANNOTATIONS = new Set(['description', 'examples', 'default', 'title', 'deprecated']);
const FORMATS = new Set(['uuid', 'date-time', 'date', 'email']);

/** A schema with its $refs followed (siblings of a $ref, such as a description, kept), and where it lives for hints. */
export function resolve(node: Schema, where: string): { schema: Schema; where: string } {
  let schema = node;
  while (typeof schema.$ref === 'string') {
    const { $ref, ...siblings } = schema;
    where = refName($ref as string);
    schema = { ...component($ref as string), ...siblings };
  }
  const unknown = Object.keys(schema).filter((k) => !HANDLED.has(k) && !ANNOTATIONS.has(k) && !k.startsWith('x-'));
  if (unknown.length) throw new Error(`no generator for JSON schema keyword(s) ${unknown.join(', ')} at ${where}`);
  if (typeof schema.format === 'string' && !FORMATS.has(schema.format)) throw new Error(`no generator for format '${schema.format}' at ${where}`);
  if (schema.additionalProperties !== undefined && typeof schema.additionalProperties !== 'boolean') throw new Error(`no generator for a schema of additionalProperties at ${where}`);
  return { schema, where };
}

/** The schema's types, null included ('object' when it only lists properties). */
export function typesOf(schema: Schema, where: string): string[] {
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (typeof schema.type === 'string') return [schema.type];
  if (schema.properties) return ['object'];
  if (schema.enum || 'const' in schema) return [];
  throw new Error(`no generator for a schema without a type at ${where}`);
}

/** Valid values of `node`; `where` names its place for hints and error messages. */
export function validValue(node: Schema, hints: Hints, where: string): fc.Arbitrary<unknown> {
  const { schema, where: at } = resolve(node, where);
  const generic = genericValue(schema, hints, at);
  // The component's hint, then the place's (a property or parameter naming a component).
  const inner = hints[at] ? hints[at](generic) : generic;
  return at !== where && hints[where] ? hints[where](inner) : inner;
}

function genericValue(schema: Schema, hints: Hints, where: string): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const types = typesOf(schema, where);
  const nonNull = types.filter((t) => t !== 'null');
  if (nonNull.length > 1) throw new Error(`no generator for the types ${types.join(', ')} at ${where}`);
  if (!nonNull.length) return fc.constant(null);
  const main = byType(nonNull[0]!, schema, hints, where);
  return types.includes('null') ? fc.oneof({ arbitrary: main, weight: 4 }, { arbitrary: fc.constant(null), weight: 1 }) : main;
}

function byType(type: string, schema: Schema, hints: Hints, where: string): fc.Arbitrary<unknown> {
  const n = (key: string) => (typeof schema[key] === 'number' ? (schema[key] as number) : undefined);
  switch (type) {
    case 'string':
      return stringValue(schema, n('minLength') ?? 0, n('maxLength'));
    case 'integer':
      return integerValue(n('minimum'), n('maximum'));
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, ...(n('minimum') !== undefined ? { min: n('minimum') } : {}), ...(n('maximum') !== undefined ? { max: n('maximum') } : {}) });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return arrayValue(schema, hints, where, n('minItems') ?? 0, n('maxItems'));
    case 'object':
      return objectValue(schema, hints, where);
    default:
      throw new Error(`no generator for type '${type}' at ${where}`);
  }
}

/** Code points that test how text is handled: accents, astral characters, RTL text and marks, combining marks, zero-width, quotes. */
export const TRICKY_CHARACTERS = ['é', 'Ω', 'ß', 'ﬁ', '𝔘', '😀', '👩‍👩‍👧', 'e\u0301', '\u0300', 'م', 'ر', 'ש', '\u202E', '\u200F', '\u200B', '\uFEFF', '\u3000', '٣', '１', ' ', '\t', '\n', "'", '"', '\\', '<', '%', '_', '&'];

/** ajv's length: code points. */
export const codePoints = (text: string) => [...text].length;

function fitted(text: string, min: number, max: number | undefined): string {
  let units = [...text.replaceAll('\u0000', ' ')];
  if (max !== undefined) units = units.slice(0, max);
  while (units.length < min) units.push('a');
  return units.join('');
}

function stringValue(schema: Schema, min: number, max: number | undefined): fc.Arbitrary<string> {
  if (schema.format === 'uuid') return uuidValue();
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true, min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z') }).map((d) => d.toISOString());
  if (schema.format === 'date') return fc.date({ noInvalidDate: true, min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z') }).map((d) => d.toISOString().slice(0, 10));
  if (schema.format === 'email') return fc.emailAddress();
  if (typeof schema.pattern === 'string') {
    return fc.stringMatching(new RegExp(schema.pattern, 'u')).filter((s) => codePoints(s) >= min && (max === undefined || codePoints(s) <= max) && !s.includes('\u0000'));
  }
  const cap = Math.min(max ?? 40, 40);
  const any = fc.oneof(
    fc.string({ unit: 'grapheme-ascii', maxLength: cap }),
    fc.string({ unit: 'grapheme', maxLength: cap }),
    fc.string({ unit: 'binary', maxLength: cap }),
    fc.string({ unit: fc.constantFrom(...TRICKY_CHARACTERS), maxLength: cap }),
  );
  // The longest text allowed, in one-unit and in astral characters (ajv counts code points).
  const longest = max !== undefined && max <= 10_000 ? [fc.constantFrom('a', 'é', '😀').map((c) => c.repeat(max))] : [];
  return fc.oneof({ arbitrary: any, weight: 9 }, ...longest.map((arbitrary) => ({ arbitrary, weight: 1 }))).map((s) => fitted(s, min, max));
}

/** uuids in any case (the URN form is refused: server/plugins/validation-gaps.ts). */
export function uuidValue(): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.uuid(), weight: 6 },
    { arbitrary: fc.uuid().map((u) => u.toUpperCase()), weight: 1 },
    { arbitrary: fc.constantFrom('00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff'), weight: 1 },
  );
}

/** Integers of the bounds, with the boundary ones: the bounds, 2^31, 2^53 and beyond (still integers for ajv). */
function integerValue(min: number | undefined, max: number | undefined): fc.Arbitrary<number> {
  const inside = (v: number) => (min === undefined || v >= min) && (max === undefined || v <= max);
  const lo = Math.max(min ?? -(2 ** 31), -(2 ** 31));
  const hi = Math.min(max ?? 2 ** 31 - 1, 2 ** 31 - 1);
  const near = fc.integer({ min: Math.max(lo, -1000), max: Math.min(hi, Math.max(lo, 0) + 1000) });
  const edges = [min, max, (min ?? 0) + 1, 0, 1, -1, 2 ** 31 - 1, 2 ** 31, Number.MAX_SAFE_INTEGER, 2 ** 53, 2 ** 63, 1e300, -(2 ** 53)].filter((v): v is number => v !== undefined && inside(v));
  return fc.oneof({ arbitrary: near, weight: 6 }, { arbitrary: fc.integer({ min: lo, max: hi }), weight: 1 }, { arbitrary: fc.constantFrom(...edges), weight: 2 });
}

function arrayValue(schema: Schema, hints: Hints, where: string, min: number, max: number | undefined): fc.Arbitrary<unknown[]> {
  if (!schema.items) throw new Error(`no generator for an array without items at ${where}`);
  const item = validValue(schema.items as Schema, hints, `${where}[]`);
  const short = Math.max(min, Math.min(max ?? 6, 6));
  // Mostly not empty (an empty list is mostly refused by the handlers), sometimes at maxItems.
  const usual = fc.oneof({ arbitrary: fc.array(item, { minLength: Math.max(min, 1), maxLength: Math.max(short, 1) }), weight: 4 }, { arbitrary: fc.array(item, { minLength: min, maxLength: short }), weight: 1 });
  if (max === undefined || max <= 6 || max > 25) return usual;
  return fc.oneof({ arbitrary: usual, weight: 9 }, { arbitrary: fc.array(item, { minLength: max, maxLength: max }), weight: 1 });
}

function objectValue(schema: Schema, hints: Hints, where: string): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const values = Object.fromEntries(Object.entries(properties).map(([key, child]) => [key, validValue(child, hints, `${where}.${key}`)]));
  const required = (schema.required ?? []) as string[];
  const record = (needed: string[], left: Set<string>) =>
    (fc.record(Object.fromEntries(Object.entries(values).filter(([key]) => !left.has(key))), { requiredKeys: [...new Set(needed)] as never[] }) as fc.Arbitrary<Record<string, unknown>>).map(
      (value) => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== OMIT)),
    );
  if (!schema.oneOf) return record(required, new Set());
  // oneOf of branches that each require their own properties: one branch's, none of the others'.
  const branches = (schema.oneOf as Schema[]).map((b, i) => {
    const branch = resolve(b, `${where}.oneOf[${i}]`).schema;
    if (!Array.isArray(branch.required) || !branch.required.length) throw new Error(`no generator for a oneOf branch without required properties at ${where}`);
    return branch.required as string[];
  });
  return fc.oneof(...branches.map((own, i) => record([...required, ...own], new Set(branches.filter((_, j) => j !== i).flat().filter((k) => !own.includes(k))))));
}
