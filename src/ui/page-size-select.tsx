import { useId } from 'react';
import { PAGE_SIZES, type PageSize } from '../domain/pagination';

export function PageSizeSelect({ value, label, onChange }: { value: PageSize; label: string; onChange: (size: PageSize) => void }) {
  const id = useId();
  return (
    <div className="flex items-center gap-2 text-sm">
      <label htmlFor={id} className="text-slate-700">
        {label}
      </label>
      <select id={id} value={value} onChange={(e) => onChange(Number(e.target.value) as PageSize)} className="rounded-md border border-slate-300 bg-white px-2 py-1">
        {PAGE_SIZES.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
    </div>
  );
}
