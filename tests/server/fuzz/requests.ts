// Requests of one operation as a fast-check arbitrary: valid ones (its parameters and body from their
// schemas) and invalid ones (one parameter or one place of the body made invalid), each knowing
// whether it is invalid and which field the refusal must name.
import fc from 'fast-check';
import type { Operation, Parameter, RequestParts } from './contract.ts';
import { OMIT, validValue, type Hints } from './values.ts';
import { applyEdit, invalidEdits, invalidTexts, RawNumber } from './mutations.ts';
import { BODY_LIMIT_BYTES } from '../../../server/plugins/body-limit.ts';

export const ABSENT = Symbol('absent');

export interface Invalidity {
  kind: string;
  /** The field the refusal's fieldErrors must name ('body.email', 'query.page', 'params.id'), if it must name one. */
  field: string | null;
  /**
   * Whether the document's schemas, validated as the server validates them, refuse it. Not so for a NUL character,
   * an unpaired surrogate or ±Infinity in a parameter (the server's guards refuse them), nor a __proto__ key (its JSON parser).
   */
  byContract: boolean;
}

export interface FuzzRequest {
  operationId: string;
  method: Operation['method'];
  url: string;
  headers: Record<string, string>;
  /** The JSON text sent, if any. */
  payload?: string;
  /** What the server validates: parameters as texts, the body as it parses. */
  parts: RequestParts;
  invalid: Invalidity | null;
}

interface Draft {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: unknown;
  /** Replaces the JSON text of the body (for what JSON.stringify cannot write). */
  rawPayload?: string;
  /** Another media type than the contract's application/json. */
  contentType?: string;
}

const LOCATION = { path: 'params', query: 'query', header: 'headers' } as const;
const keyOf = (p: Parameter) => (p.in === 'header' ? p.name.toLowerCase() : p.name);
/** Where a parameter's hint lives: its component's name, else its place and name. */
export const parameterPlace = (p: Parameter) => (p.ref ? `parameters.${p.ref}` : `${p.in}.${p.name}`);

function parameterValue(op: Operation, p: Parameter, hints: Hints): fc.Arbitrary<unknown> {
  const place = parameterPlace(p);
  const ref = typeof p.schema.$ref === 'string' ? (p.schema.$ref as string).split('/').pop()! : null;
  if (p.in === 'path' && !hints[place] && !(ref && hints[ref])) throw new Error(`${op.operationId}: no source of real values (hint '${place}') for the path parameter ${p.name}`);
  return validValue(p.schema, hints, place);
}

function validDraft(op: Operation, hints: Hints): fc.Arbitrary<Draft> {
  const group = (where: Parameter['in']) => {
    const list = op.parameters.filter((p) => p.in === where);
    const values = Object.fromEntries(list.map((p) => [keyOf(p), parameterValue(op, p, hints)]));
    const requiredKeys = list.filter((p) => p.required || p.in === 'path').map(keyOf) as never[];
    // Hints may leave an optional parameter out (OMIT): If-Match is mostly not sent, so that writes also go through.
    return fc.record(values, { requiredKeys }).map((value) => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== OMIT)));
  };
  // Query parameters the document does not name are ignored: sent now and then.
  const noise = fc.option(fc.tuple(fc.stringMatching(/^x[a-z]{1,8}$/), fc.string({ maxLength: 12 })), { freq: 4, nil: undefined });
  return fc
    .record({ params: group('path'), query: group('query'), headers: group('header'), noise, body: op.body ? validValue(op.body.schema, hints, 'body') : fc.constant(ABSENT) })
    .map(({ noise: extra, ...draft }) => (extra ? { ...draft, query: { [extra[0]]: extra[1], ...draft.query } } : draft));
}

/** JSON text, numbers given as RawNumber written as they are. */
export function jsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => (v instanceof RawNumber ? `\u0001${raws.push(v.text) - 1}\u0001` : v));
  return text.replace(/"\\u0001(\d+)\\u0001"/g, (_m, i: string) => raws[Number(i)]!);
}

const asText = (v: unknown) => (typeof v === 'string' ? v : String(v));

function build(op: Operation, draft: Draft, invalid: Invalidity | null): FuzzRequest {
  const params = Object.fromEntries(Object.entries(draft.params).map(([k, v]) => [k, asText(v)]));
  const query = Object.fromEntries(Object.entries(draft.query).filter(([, v]) => v !== undefined).map(([k, v]) => [k, Array.isArray(v) ? v.map(asText) : asText(v)]));
  const headers = Object.fromEntries(Object.entries(draft.headers).filter(([, v]) => v !== undefined).map(([k, v]) => [k, asText(v)]));
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const one of Array.isArray(v) ? v : [v]) search.append(k, one);
  const path = op.route.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''));
  const payload = draft.rawPayload ?? (draft.body === ABSENT ? undefined : jsonText(draft.body));
  const request: FuzzRequest = {
    operationId: op.operationId,
    method: op.method,
    url: search.size ? `${path}?${search.toString()}` : path,
    headers: { ...headers, ...(payload !== undefined ? { 'content-type': draft.contentType ?? 'application/json' } : {}) },
    ...(payload !== undefined ? { payload } : {}),
    parts: { params, query, headers, body: payload === undefined || draft.rawPayload ? undefined : draft.contentType ? payload : JSON.parse(payload) },
    invalid,
  };
  // fast-check prints counterexamples with this: long texts cut, so that a shrunk failure stays readable.
  return Object.assign(request, { [fc.toStringMethod]: () => describeRequest(request) });
}

export function describeRequest(r: FuzzRequest): string {
  const cut = (text: string) => (text.length > 100 ? `${text.slice(0, 40)}…(${text.length} chars)` : text);
  // The JSON text as sent (1e999 stays 1e999), its long strings cut.
  const body = r.payload === undefined ? '' : ` body ${r.payload.replace(/"(?:[^"\\]|\\.){100,}"/g, (text) => `${cut(text)}"`)}`;
  const ifMatch = r.headers['if-match'] !== undefined ? ` If-Match: ${r.headers['if-match']}` : '';
  const verdict = r.invalid ? `invalid: ${r.invalid.kind}; must answer 400${r.invalid.field ? ` naming ${r.invalid.field}` : ''}` : 'valid';
  return `${r.method} ${cut(r.url)}${ifMatch}${body} (${verdict})`;
}

/** Parameter texts a router would send elsewhere (another route, or 404 beyond maxParamLength): not sent as path values. */
const routable = (text: string) => text !== '' && text !== '.' && text !== '..' && encodeURIComponent(text).length <= 100;
const sendableHeader = (text: string) => /^[\x20-\x7e]*$/.test(text);

function invalidDrafts(op: Operation, draft: Draft): fc.WeightedArbitrary<FuzzRequest>[] {
  const out: fc.WeightedArbitrary<FuzzRequest>[] = [];
  // NUL characters, unpaired surrogates and ±Infinity in parameters are refused by the server's guards, not by ajv (the fuzz's contract check).
  const invalid = (kind: string, field: string | null): Invalidity => ({ kind, field, byContract: field !== null && !/(NUL character|unpaired surrogate|non-finite number)$/.test(kind) });
  for (const p of op.parameters) {
    const location = LOCATION[p.in];
    const key = keyOf(p);
    const texts = invalidTexts(p.schema, parameterPlace(p), { huge: p.in === 'query', nul: p.in !== 'header', surrogate: false })
      .filter(({ text }) => (p.in === 'path' ? routable(text) : p.in === 'header' ? sendableHeader(text) : true));
    const set = (value: unknown): Draft => ({ ...draft, [location]: { ...draft[location], [key]: value } });
    if (texts.length) out.push({ weight: 1, arbitrary: fc.constantFrom(...texts).map(({ kind, text }) => build(op, set(text), invalid(`${p.in} ${p.name}: ${kind}`, `${location}.${key}`))) });
    const value = draft.query[key];
    if (p.in === 'query' && value !== undefined) out.push({ weight: 1, arbitrary: fc.constant(build(op, set([value, value]), invalid(`query ${p.name} given twice`, `query.${key}`))) });
  }
  if (op.body) {
    const edits = invalidEdits(op.body.schema, draft.body, [], 'body');
    out.push({ weight: 4, arbitrary: fc.oneof(...edits).map((edit) => build(op, { ...draft, body: applyEdit(draft.body, edit) }, invalid(`body: ${edit.kind}`, ['body', ...edit.field].join('.')))) });
    if (op.body.required) out.push({ weight: 1, arbitrary: fc.constant(build(op, { ...draft, body: ABSENT }, invalid('body missing', 'body'))) });
    const text = jsonText(draft.body);
    out.push({ weight: 1, arbitrary: fc.constant(build(op, { ...draft, contentType: 'text/plain' }, invalid('body sent as text/plain', 'body'))) });
    if (text.startsWith('{')) {
      const poisoned = `{"__proto__":{"isAdmin":true}${text === '{}' ? '' : ','}${text.slice(1)}`;
      out.push({ weight: 1, arbitrary: fc.constant(build(op, { ...draft, rawPayload: poisoned }, invalid('body: __proto__ key (prototype poisoning)', null))) });
    }
  }
  return out;
}

/** Valid and invalid requests of the operation, half and half when the operation takes any input. */
export function requestArbitrary(op: Operation, hints: Hints): fc.Arbitrary<FuzzRequest> {
  const drafts = validDraft(op, hints);
  const valid = drafts.map((draft) => build(op, draft, null));
  const takesInput = op.parameters.length > 0 || op.body !== null;
  if (!takesInput) return valid;
  const invalid = drafts.chain((draft) => {
    const ways = invalidDrafts(op, draft);
    return ways.length ? fc.oneof(...ways) : valid;
  });
  // Bodies the contract allows stay far below the body limit; an invalid one beyond it gets 413 (not fuzzed here).
  return fc.oneof(valid, invalid).filter((r) => r.payload === undefined || Buffer.byteLength(r.payload) <= BODY_LIMIT_BYTES);
}
