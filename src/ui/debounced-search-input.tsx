import { useEffect, useId, useRef, useState } from 'react';

export interface DebouncedSearchInputProps {
  /** The search in force (from the URL). */
  value: string;
  label: string;
  placeholder: string;
  delayMs: number;
  onSearch: (value: string) => void;
}

/** A search box that reports what was typed once typing pauses for `delayMs`. */
export function DebouncedSearchInput({ value, label, placeholder, delayMs, onSearch }: DebouncedSearchInputProps) {
  const id = useId();
  const [text, setText] = useState(value);
  const latest = useRef(onSearch);
  latest.current = onSearch;
  // The URL changed elsewhere (back button, link): show it.
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => latest.current(text), delayMs);
    return () => clearTimeout(timer);
  }, [text, value, delayMs]);
  return (
    <div className="relative w-full max-w-md">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="search"
        value={text}
        placeholder={placeholder}
        onChange={(e) => setText(e.target.value)}
        className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2"
      />
    </div>
  );
}
