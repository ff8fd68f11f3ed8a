import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { ShownToast } from './toast-region';

export type ToastVariant = 'success' | 'error';

export interface ToastMessage {
  /** Same id, same toast: a message passed on from another screen is not shown twice. */
  id?: string;
  title: string;
  description?: string;
  variant: ToastVariant;
  durationMs: number;
}

const ToastContext = createContext<((toast: ToastMessage) => void) | null>(null);

// Radix Toast is not needed to draw the first screen: it loads just after, beside it, and shows
// whatever was asked in the meantime.
const ToastRegion = lazy(() => import('./toast-region'));

/** Keeps the toasts asked for by any screen; the region (toast-region.tsx) shows them. */
export function Toaster({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ShownToast[]>([]);
  const show = useCallback((toast: ToastMessage) => {
    const key = toast.id ?? `${Date.now()}-${Math.random()}`;
    setToasts((current) => [...current.filter((t) => t.key !== key), { ...toast, key }]);
  }, []);
  const remove = useCallback((key: string) => setToasts((current) => current.filter((t) => t.key !== key)), []);
  return (
    <ToastContext.Provider value={show}>
      {children}
      <Suspense fallback={null}>
        <ToastRegion toasts={toasts} onRemove={remove} />
      </Suspense>
    </ToastContext.Provider>
  );
}

export function useToast(): (toast: ToastMessage) => void {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast needs a Toaster');
  return useMemo(() => show, [show]);
}
