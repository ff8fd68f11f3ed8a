import * as Toast from '@radix-ui/react-toast';
import { fr } from '../i18n/fr';
import type { ToastMessage, ToastVariant } from './toaster';

export type ShownToast = ToastMessage & { key: string };

const STYLES: Record<ToastVariant, string> = {
  success: 'border-green-300 bg-green-50 text-green-900',
  error: 'border-red-300 bg-red-50 text-red-900',
};

/** The toasts on screen, announced to screen readers (Radix Toast), each for its own duration. */
export default function ToastRegion({ toasts, onRemove }: { toasts: ShownToast[]; onRemove: (key: string) => void }) {
  return (
    <Toast.Provider swipeDirection="right" label="Notification">
      {toasts.map((toast) => (
        <Toast.Root
          key={toast.key}
          duration={toast.durationMs}
          type={toast.variant === 'error' ? 'foreground' : 'background'}
          onOpenChange={(open) => !open && onRemove(toast.key)}
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
  );
}
