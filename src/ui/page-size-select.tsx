import { useId } from 'react';
import { PAGE_SIZES, type PageSize } from '../domain/pagination';

/** A native select with its visible label, as a list's controls draw it (the page size, the cards' sort). */
export function LabelledSelect<V extends string>({ label, value, options, onChange }: { label: string; value: V; options: { value: V; label: string }[]; onChange: (value: V) => void }) {
  const id = useId();
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <label htmlFor={id} className="whitespace-nowrap text-slate-700">
        {label}
      </label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as V)} className="max-w-full rounded-md border border-slate-300 bg-white px-2 py-1">
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function PageSizeSelect({ value, label, onChange }: { value: PageSize; label: string; onChange: (size: PageSize) => void }) {
  return <LabelledSelect label={label} value={String(value)} options={PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) }))} onChange={(size) => onChange(Number(size) as PageSize)} />;
}
