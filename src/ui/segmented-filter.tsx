/** A group of toggle buttons choosing one value (aria-pressed). */
export function SegmentedFilter<T extends string>({ label, options, value, onChange }: { label: string; options: { value: T; label: string }[]; value: T; onChange: (value: T) => void }) {
  return (
    <div role="group" aria-label={label} className="inline-flex flex-wrap gap-1 rounded-lg bg-slate-100 p-1">
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={option.value === value}
          onClick={() => onChange(option.value)}
          className={`rounded-md px-3 py-1.5 text-sm font-medium ${option.value === value ? 'bg-white text-brand-800 shadow' : 'text-slate-700 hover:bg-white/60'}`}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
