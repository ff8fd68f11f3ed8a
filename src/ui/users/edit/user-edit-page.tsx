import { useId, type ReactNode } from 'react';
import * as Tabs from '@radix-ui/react-tabs';
import * as Tooltip from '@radix-ui/react-tooltip';
import { EDIT_TABS, type EditTab, type SaveBlock, type TabBlock } from '../../../domain/user-edit';
import { fr } from '../../../i18n/fr';
import { ReasonButton } from '../../reason-button';
import { PendingEmail } from '../user-notices';
import { ReasonText, TabReason } from './with-reason';

const t = fr.userEdit;

export interface UserEditPageProps {
  name: string;
  email: string;
  /** A new address waiting for its owner's confirmation; null: none. */
  pendingEmail: string | null;
  tab: EditTab;
  tabBlocks: Record<EditTab, TabBlock | null>;
  onTab: (tab: EditTab) => void;
  panels: Record<EditTab, ReactNode>;
  saveBlock: SaveBlock | null;
  saving: boolean;
  /** The last save failed; `message` is the server's, if any. */
  saveError: { message: string | null } | null;
  onCancel: () => void;
  onSave: () => void;
}

const triggerClass =
  'relative -mb-px border-b-2 border-transparent px-4 py-2.5 font-medium text-slate-700 hover:text-brand-700 data-[state=active]:border-brand-600 data-[state=active]:text-brand-700 aria-disabled:cursor-not-allowed aria-disabled:text-slate-500';

/** Spec §2 /utilisateurs/edit/{userId}: four tabs (Radix Tabs), each disabled tab saying why, then Annuler and Enregistrer. */
export function UserEditPage({ name, email, pendingEmail, tab, tabBlocks, onTab, panels, saveBlock, saving, saveError, onCancel, onSave }: UserEditPageProps) {
  const id = useId();
  const saveReason = saveBlock ? t.saveBlocked[saveBlock] : null;
  return (
    <Tooltip.Provider>
      <div className="max-w-5xl space-y-5">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">{t.heading}</h1>
          <p className="mt-1 text-slate-700">
            <span className="font-semibold text-slate-900">{name}</span> · {email}
          </p>
          {pendingEmail && <PendingEmail email={pendingEmail} />}
        </div>
        {saveError && (
          <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-red-900">
            <p className="font-semibold">{t.saveFailed}</p>
            {saveError.message && <p className="mt-1 text-sm">{saveError.message}</p>}
          </div>
        )}
        <Tabs.Root value={tab} onValueChange={(value) => onTab(value as EditTab)} className="rounded-xl border border-slate-200 bg-white shadow-sm">
          <Tabs.List aria-label={t.tabsLabel} className="flex flex-wrap border-b border-slate-200 px-2">
            {EDIT_TABS.map((value) => {
              const block = tabBlocks[value];
              const reason = block ? t.tabBlocked[block] : null;
              const trigger = (
                <Tabs.Trigger
                  key={value}
                  value={value}
                  asChild={reason !== null}
                  aria-disabled={reason ? true : undefined}
                  aria-describedby={reason ? `${id}-${value}-reason` : undefined}
                  className={triggerClass}
                >
                  {reason ? <Tooltip.Trigger>{t.tabs[value]}</Tooltip.Trigger> : t.tabs[value]}
                </Tabs.Trigger>
              );
              // A blocked tab stays focusable (aria-disabled, the machine refuses it) so that its tooltip says why:
              // a wrapper around a disabled tab would put a non-tab in the tab list.
              return reason ? <TabReason key={value} reason={reason} trigger={trigger} /> : trigger;
            })}
          </Tabs.List>
          {EDIT_TABS.map((value) => (
            <ReasonText key={value} id={`${id}-${value}-reason`} reason={tabBlocks[value] ? t.tabBlocked[tabBlocks[value]] : null} />
          ))}
          {EDIT_TABS.map((value) => (
            <Tabs.Content key={value} value={value} className="p-5 outline-none">
              {panels[value]}
            </Tabs.Content>
          ))}
        </Tabs.Root>
        <div className="flex flex-wrap items-center justify-end gap-3">
          <button type="button" onClick={onCancel} disabled={saving} className="rounded-lg border border-slate-300 px-4 py-2 font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50">
            {t.cancel}
          </button>
          <ReasonButton
            reason={saveReason}
            disabled={saving}
            onClick={onSave}
            aria-busy={saving || undefined}
            className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-700 aria-disabled:cursor-not-allowed aria-disabled:bg-slate-300 aria-disabled:text-slate-700"
          >
            {saving ? t.saving : t.save}
          </ReasonButton>
        </div>
      </div>
    </Tooltip.Provider>
  );
}
