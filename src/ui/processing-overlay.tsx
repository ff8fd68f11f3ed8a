/** The full-screen overlay shown while a decision is processed. */
export function ProcessingOverlay({ label }: { label: string }) {
  return (
    <div role="status" aria-live="assertive" className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-4 bg-slate-900/60 text-white">
      <span aria-hidden="true" className="h-12 w-12 animate-spin rounded-full border-4 border-white/30 border-t-white" />
      <span className="text-lg font-semibold">{label}</span>
    </div>
  );
}
