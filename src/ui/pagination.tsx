import type { PageItem } from '../domain/pagination';
import { frLists as fr } from '../i18n/fr-lists';

export interface PaginationProps {
  page: number;
  totalPages: number;
  items: PageItem[];
  onPage: (page: number) => void;
}

const button = 'min-w-9 rounded-md border px-2.5 py-1.5 text-sm font-medium';

export function Pagination({ page, totalPages, items, onPage }: PaginationProps) {
  if (totalPages <= 1) return null;
  return (
    <nav aria-label={fr.pagination.label}>
      <ul className="flex flex-wrap items-center gap-1">
        <li>
          <button type="button" className={`${button} border-slate-300 hover:bg-slate-50 disabled:opacity-40`} disabled={page <= 1} onClick={() => onPage(page - 1)} aria-label={fr.pagination.previous}>
            <span aria-hidden="true">‹</span>
          </button>
        </li>
        {items.map((item) =>
          typeof item === 'number' ? (
            <li key={item}>
              <button
                type="button"
                onClick={() => onPage(item)}
                aria-current={item === page ? 'page' : undefined}
                aria-label={fr.pagination.page(item)}
                className={`${button} ${item === page ? 'border-brand-600 bg-brand-600 text-white' : 'border-slate-300 hover:bg-slate-50'}`}
              >
                {item}
              </button>
            </li>
          ) : (
            <li key={item} aria-hidden="true" className="px-1 text-slate-500">
              …
            </li>
          ),
        )}
        <li>
          <button type="button" className={`${button} border-slate-300 hover:bg-slate-50 disabled:opacity-40`} disabled={page >= totalPages} onClick={() => onPage(page + 1)} aria-label={fr.pagination.next}>
            <span aria-hidden="true">›</span>
          </button>
        </li>
      </ul>
    </nav>
  );
}
