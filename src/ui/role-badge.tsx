import type { RoleTone } from '../../rules/roles';

/** Text always dark on a light tint: contrast AA whatever the tone. */
const TONE_CLASSES: Record<RoleTone, string> = {
  blue: 'bg-blue-100 text-blue-900 ring-blue-300',
  indigo: 'bg-indigo-100 text-indigo-900 ring-indigo-300',
  red: 'bg-red-100 text-red-900 ring-red-300',
  teal: 'bg-teal-100 text-teal-900 ring-teal-300',
  purple: 'bg-purple-100 text-purple-900 ring-purple-300',
  pink: 'bg-pink-100 text-pink-900 ring-pink-300',
  orange: 'bg-orange-100 text-orange-900 ring-orange-300',
  amber: 'bg-amber-100 text-amber-900 ring-amber-300',
  lime: 'bg-lime-100 text-lime-900 ring-lime-300',
  yellow: 'bg-yellow-100 text-yellow-900 ring-yellow-300',
  cyan: 'bg-cyan-100 text-cyan-900 ring-cyan-300',
  grey: 'bg-slate-100 text-slate-800 ring-slate-300',
};

/** A role as a badge: its display label (see roleDisplayLabel), in its code's colour. */
export function RoleBadge({ label, tone }: { label: string; tone: RoleTone }) {
  return <span className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ${TONE_CLASSES[tone]}`}>{label}</span>;
}
