// Invalid values made from valid ones: wrong types, required fields removed, unknown fields, texts beyond
// their length or pattern (huge ones, astral and RTL ones), numbers out of bounds, malformed codes and
// uuids, NUL characters. Each stays invalid after the server's coercion (coerceTypes 'array': '7' → 7,
// x → [x], [x] → x, null → '' / 0 / false), and names the field the server's refusal must name.
import fc from 'fast-check';
import type { Schema } from './contract.ts';
import { resolve, typesOf } from './values.ts';

export type Path = (string | number)[];

/** A number written as such in the JSON text (1e999 reads as Infinity). */
export class RawNumber {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}
export const REMOVED = Symbol('removed');

/** One change that makes a valid value invalid, and the field the refusal must name. */
export interface Edit {
  kind: string;
  at: Path;
  /** The new value, or REMOVED. */
  to: unknown;
  field: Path;
}

/** 100 kB of text (in UTF-8), under the server's body limit (server/plugins/body-limit.ts). */
const HUGE = 100_000;
const huge = ['x'.repeat(HUGE), '😀ש\u0301'.repeat(HUGE / 8)];
const UUID = /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
const BAD_UUIDS = ['urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'not-a-uuid', '1234', '0', '00000000-0000-0000-0000-00000000000g', '00000000000000000000000000000000', '{00000000-0000-0000-0000-000000000000}', '00000000-0000-0000-0000-0000000000000', "' OR 1=1 --", 'é', '𝔘'];
const BAD_CODES = ['', 'abc', '12345678', '1234567890', '1234567890123', '123456789012345', '12345678A', '１２３４５６７８９', '٠١٢٣٤٥٦٧٨', '123 456 789', '123456789\n', '-1', 'admin_adherent', 'A', 'ADMIN ADHERENT', '"7"x', 'W/7', '*', 'pending,', 'PENDING;DROP'];
const BAD_NUMBERS = ['abc', '1.5', 'NaN', '', '١٢', '0x', '1,5', '--1', 'true'];
/** Texts ajv's coercion turns into ±Infinity, then lets through whatever the bounds (server/plugins/validation-gaps.ts refuses them). */
export const NON_FINITE = ['Infinity', '-Infinity', '1e999', '-1e999'];
const BAD_BOOLEANS = ['maybe', '0', '1', 'TRUE', 'yes', ''];

/** Whether ajv, coercing as the server does, refuses this text for a number or an integer of these bounds. */
function refusedAsNumber(text: string, schema: Schema, integer: boolean): boolean {
  if (text === '' || String(+text) === 'NaN' || +text != (text as unknown as number)) return true;
  const v = +text;
  return (integer && v % 1 !== 0) || (typeof schema.minimum === 'number' && v < schema.minimum) || (typeof schema.maximum === 'number' && v > schema.maximum);
}

/** What the schema's type is when it only lists an enum. */
function mainType(schema: Schema, where: string): string {
  const types = typesOf(schema, where).filter((t) => t !== 'null');
  if (types.length) return types[0]!;
  return typeof (schema.enum as unknown[] | undefined)?.[0] === 'string' ? 'string' : 'unknown';
}

/** Texts the schema refuses, as a query, path or header parameter sends them (and as body strings). */
export function invalidTexts(node: Schema, where: string, options: { huge: boolean; nul: boolean; surrogate: boolean }): { kind: string; text: string }[] {
  const { schema, where: at } = resolve(node, where);
  const type = mainType(schema, at);
  const out: { kind: string; text: string }[] = [];
  const bounds = [schema.minimum, schema.maximum].filter((b): b is number => typeof b === 'number');
  if (type === 'integer' || type === 'number') {
    const candidates = [...BAD_NUMBERS, ...bounds.flatMap((b) => [String(b - 1), String(b + 1)]), '-1', '0', String(2 ** 53)];
    for (const text of new Set(candidates)) if (refusedAsNumber(text, schema, type === 'integer')) out.push({ kind: `bad ${type}`, text });
    for (const text of NON_FINITE) out.push({ kind: 'non-finite number', text });
  }
  if (type === 'boolean') for (const text of BAD_BOOLEANS) out.push({ kind: 'bad boolean', text });
  if (type !== 'string') return out;
  const enumValues = schema.enum as string[] | undefined;
  if (enumValues) for (const text of ['', 'x', enumValues[0]!.toLowerCase(), enumValues[0]!.toUpperCase(), `${enumValues[0]} `, 'é']) if (!enumValues.includes(text)) out.push({ kind: 'not in enum', text });
  if (schema.format === 'uuid') for (const text of BAD_UUIDS) if (!UUID.test(text)) out.push({ kind: 'malformed uuid', text });
  if (schema.format === 'date') for (const text of ['2026-13-01', '2026-02-30', '27/11/2026', '2026-1-1', 'demain']) out.push({ kind: 'malformed date', text });
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern, 'u');
    for (const text of BAD_CODES) if (!pattern.test(text)) out.push({ kind: 'breaks the pattern', text });
  }
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  if (max !== undefined) for (const c of ['a', '😀', 'ש']) out.push({ kind: 'beyond maxLength', text: c.repeat(max + 1) });
  if (typeof schema.minLength === 'number' && schema.minLength > 0) out.push({ kind: 'below minLength', text: 'a'.repeat(schema.minLength - 1) });
  const constrained = max !== undefined || schema.pattern || schema.format || enumValues;
  if (options.huge && constrained && (max ?? 0) < HUGE) for (const text of huge) out.push({ kind: 'huge text', text });
  if (options.nul) out.push({ kind: 'NUL character', text: 'a\u0000b' });
  // Half of a UTF-16 pair alone: JSON can write it ("\ud83d"), a URL cannot (it decodes to U+FFFD).
  if (options.surrogate) out.push({ kind: 'unpaired surrogate', text: 'a\uD83Db' });
  return out;
}

/** Replacements of another JSON type that no coercion turns into an allowed one. */
function wrongTypes(types: string[]): unknown[] {
  const has = (...names: string[]) => types.some((t) => names.includes(t));
  const out: unknown[] = [];
  if (!has('object')) out.push({ unexpected: true });
  if (!has('array')) out.push([1, 2]);
  if (!has('string', 'array')) out.push('text');
  if (!has('number', 'integer', 'string', 'array')) out.push(42);
  if (!has('boolean', 'string', 'number', 'integer', 'array')) out.push(true);
  if (!has('null') && types.every((t) => t === 'object')) out.push(null);
  return out;
}

const unknownKey = fc.oneof(fc.constantFrom('unknown', 'isAdmin', 'userType', 'constructor', '$where', 'é', '𝔘𝔫', 'a b'), fc.stringMatching(/^[a-z][A-Za-z0-9_]{0,15}$/));

/** Every invalid edit of `value` (valid for `node`) at `at`, the body's root when `at` is empty. */
export function invalidEdits(node: Schema, value: unknown, at: Path, where: string): fc.Arbitrary<Edit>[] {
  const { schema, where: w } = resolve(node, where);
  const type = mainType(schema, w);
  const types = typesOf(schema, w).length ? typesOf(schema, w) : [type];
  const edit = (kind: string, to: unknown, field: Path = at): Edit => ({ kind, at, to, field });
  const edits: fc.Arbitrary<Edit>[] = [fc.constantFrom(...wrongTypes(types).map((to) => edit('wrong type', to)))];
  if (value === null || value === undefined) return edits;
  if (typeof value === 'string') {
    edits.push(...invalidTexts(schema, w, { huge: true, nul: true, surrogate: true }).map(({ kind, text }) => fc.constant(edit(kind, text))));
  } else if (typeof value === 'number') {
    // In a JSON body, 1e999 reads as Infinity: not a number to ajv (strictNumbers).
    const numbers: unknown[] = ['NaN', 'abc', new RawNumber('1e999'), new RawNumber('-1e999')];
    if (type === 'integer') numbers.push(1.5);
    if (typeof schema.minimum === 'number') numbers.push(schema.minimum - 1);
    if (typeof schema.maximum === 'number') numbers.push(schema.maximum + 1, 2 ** 53);
    edits.push(fc.constantFrom(...numbers.map((to) => edit('number out of bounds', to))));
  } else if (typeof value === 'boolean') {
    edits.push(fc.constantFrom(edit('bad boolean', 'maybe'), edit('bad boolean', 2)));
  } else if (Array.isArray(value)) {
    const { minItems, maxItems } = schema as { minItems?: number; maxItems?: number };
    if (typeof maxItems === 'number' && value.length) edits.push(fc.constant(edit('too many items', Array.from({ length: maxItems + 1 }, (_, i) => value[i % value.length]))));
    if (typeof minItems === 'number' && minItems > 0) edits.push(fc.constant(edit('too few items', value.slice(0, minItems - 1))));
    value.forEach((item, i) => edits.push(...invalidEdits(schema.items as Schema, item, [...at, i], `${w}[]`)));
  } else if (typeof value === 'object') {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const present = value as Record<string, unknown>;
    // Required ones, and those a oneOf branch requires (the branch the value took then matches no more).
    const branchRequired = ((schema.oneOf ?? []) as Schema[]).flatMap((b) => (resolve(b, w).schema.required ?? []) as string[]);
    for (const key of new Set([...((schema.required ?? []) as string[]), ...branchRequired])) if (key in present) edits.push(fc.constant({ kind: 'required field removed', at: [...at, key], to: REMOVED, field: [...at, key] }));
    if (schema.additionalProperties === false) {
      edits.push(
        fc.tuple(unknownKey.filter((k) => !(k in properties)), fc.constantFrom(1, 'x', null, {}, [])).map(([key, to]) => ({ kind: 'unknown field', at: [...at, key], to, field: [...at, key] })),
      );
    }
    for (const [key, child] of Object.entries(properties)) if (key in present) edits.push(...invalidEdits(child, present[key], [...at, key], `${w}.${key}`));
  }
  return edits;
}

const clone = (v: unknown): unknown =>
  v instanceof RawNumber ? v : Array.isArray(v) ? v.map(clone) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clone(x)])) : v;

/** `root` with the edit applied (a copy; the edit's value itself is put as is). */
export function applyEdit(root: unknown, edit: Edit): unknown {
  if (!edit.at.length) return edit.to;
  const copy = clone(root) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of edit.at.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = edit.at[edit.at.length - 1]!;
  if (edit.to === REMOVED) delete parent[last];
  else parent[last] = edit.to;
  return copy;
}
