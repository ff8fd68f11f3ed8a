import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import * as Toast from '@radix-ui/react-toast';
import { fr } from '../i18n/fr';

export type ToastVariant = 'success' | 'error';

export interface ToastMessage {
  /** Same id, same toast: a message passed on from another screen is not shown twice. */
  id?: string;
  title: string;
  description?: string;
  variant: ToastVariant;
  durationMs: number;
}

type ShownToast = ToastMessage & { key: string };

const ToastContext = createContext<((toast: ToastMessage) => void) | null>(null);

const STYLES: Record<ToastVariant, string> = {
  success: 'border-green-300 bg-green-50 text-green-900',
  error: 'border-red-300 bg-red-50 text-red-900',
};

/** Toasts announced to screen readers (Radix Toast), each for its own duration. */
export function Toaster({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ShownToast[]>([]);
  const show = useCallback((toast: ToastMessage) => {
    const key = toast.id ?? `${Date.now()}-${Math.random()}`;
    setToasts((current) => [...current.filter((t) => t.key !== key), { ...toast, key }]);
  }, []);
  const remove = (key: string) => setToasts((current) => current.filter((t) => t.key !== key));
  return (
    <ToastContext.Provider value={show}>
      <Toast.Provider swipeDirection="right" label="Notification">
        {children}
        {toasts.map((toast) => (
          <Toast.Root
            key={toast.key}
            duration={toast.durationMs}
            type={toast.variant === 'error' ? 'foreground' : 'background'}
            onOpenChange={(open) => !open && remove(toast.key)}
            className={`flex items-start gap-3 rounded-lg border p-4 shadow-lg ${STYLES[toast.variant]}`}
          >
            <div className="flex-1">
              <Toast.Title className="font-semibold">{toast.title}</Toast.Title>
              {toast.description && <Toast.Description className="mt-1 text-sm">{toast.description}</Toast.Description>}
            </div>
            <Toast.Close aria-label={fr.invitations.close} className="rounded p-1 hover:bg-black/5">
              <span aria-hidden="true">×</span>
            </Toast.Close>
          </Toast.Root>
        ))}
        <Toast.Viewport className="fixed right-4 bottom-4 z-50 flex w-[min(28rem,calc(100vw-2rem))] flex-col gap-2 outline-none" />
      </Toast.Provider>
    </ToastContext.Provider>
  );
}

export function useToast(): (toast: ToastMessage) => void {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast needs a Toaster');
  return useMemo(() => show, [show]);
}
