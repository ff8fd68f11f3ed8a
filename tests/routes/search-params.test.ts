import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { flag, integer, isUuid, matching, numberOf, oneOf, searchValidator, text, uuid } from '../../src/lib/search-params';
import { listSearchFields } from '../../src/lib/list-search';
import { PAGE_SIZES } from '../../src/domain/pagination';

// The raw values TanStack Router hands to validateSearch: JSON-parsed URL values, absent ones, and odd ones.
const RAW: unknown[] = [
  undefined, null, '', ' ', 'abc', 'x'.repeat(200), 'x'.repeat(201), '0', '1', '2', '-3', '1.5', '10', '20', '50', '100', '15', ' 7 ', '1e1',
  0, 1, 2, -1, 1.5, 10, 20, 50, 100, 15, NaN, Infinity, true, false, [], ['1'], {}, { a: 1 },
  'asc', 'desc', 'ASC', 'name', 'email', 'lastLogin', 'PENDING', 'all', 'ADMIN_ADHERENT', 'A', 'ab_C',
  '7b8a4b6a-0b1a-4c1a-8b1a-0b1a4c1a8b1a', '7B8A4B6A-0B1A-4C1A-8B1A-0B1A4C1A8B1A', '7b8a4b6a-0b1a-0c1a-8b1a-0b1a4c1a8b1a', '7b8a4b6a-0b1a-4c1a-7b1a-0b1a4c1a8b1a',
  '00000000-0000-0000-0000-000000000000', '7b8a4b6a0b1a4c1a8b1a0b1a4c1a8b1a',
];

// The zod schemas these fields replace (the route files used them until the first screen's budget).
const ZOD = {
  search: z.string().max(200).default('').catch(''),
  order: z.enum(['asc', 'desc']).default('desc').catch('desc'),
  page: z.coerce.number().int().min(1).default(1).catch(1),
  pageSize: z.coerce.number().refine((n) => (PAGE_SIZES as readonly number[]).includes(n)).default(10).catch(10),
  uuid: z.string().uuid().optional().catch(undefined),
  role: z.string().regex(/^[A-Z_]{2,50}$/).optional().catch(undefined),
  sort: z.enum(['name', 'email', 'lastLogin']).default('name').catch('name'),
  admin: z.boolean().optional().catch(undefined),
};

describe('the search fields give what the zod schemas they replace gave', () => {
  const list = listSearchFields('desc');
  const cases: [string, (raw: unknown) => unknown, z.ZodType][] = [
    ['search', list.search, ZOD.search],
    ['order', list.order, ZOD.order],
    ['page', list.page, ZOD.page],
    ['pageSize', list.pageSize, ZOD.pageSize],
    ['uuid', uuid, ZOD.uuid],
    ['role', matching(/^[A-Z_]{2,50}$/), ZOD.role],
    ['sort', oneOf(['name', 'email', 'lastLogin'], 'name'), ZOD.sort],
    ['admin', flag, ZOD.admin],
  ];
  it.each(cases)('%s, for every raw value', (_name, field, schema) => {
    for (const raw of RAW) expect(field(raw), JSON.stringify(raw) ?? String(raw)).toEqual(schema.parse(raw));
  });
});

describe('search fields', () => {
  it('keep a right value and fall back otherwise', () => {
    expect(text(3)('abc')).toBe('abc');
    expect(text(3)('abcd')).toBe('');
    expect(integer(1, 1)('4')).toBe(4);
    expect(integer(1, 1)('0')).toBe(1);
    expect(numberOf([10, 20], 10)('20')).toBe(20);
    expect(numberOf([10, 20], 10)(30)).toBe(10);
    expect(isUuid('7b8a4b6a-0b1a-4c1a-8b1a-0b1a4c1a8b1a')).toBe(true);
    expect(isUuid('../etc')).toBe(false);
  });

  it('read a search object: known fields only, absent optional ones left out, wrong ones replaced', () => {
    const validate = searchValidator<{ siren?: string; page: number; order: 'asc' | 'desc' }>({ siren: uuid, page: integer(1, 1), order: oneOf(['asc', 'desc'], 'asc') });
    expect(validate({} as never)).toEqual({ page: 1, order: 'asc' });
    expect(Object.keys(validate({ siren: 'nope' } as never))).toEqual(['page', 'order']);
    expect(validate({ page: '3', order: 'desc', other: 'x' } as never)).toEqual({ page: 3, order: 'desc' });
  });
});
