// The rows of 'Durées de conservation' from the server's items: the screen draws them, and the README's table is
// the same rows for the default settings (tests/docs/readme-retention.test.ts).
import type { RetentionItem } from '../../api/retention';
import { frRetention as t } from '../../i18n/fr-retention';

export interface RetentionRow {
  kind: RetentionItem['kind'];
  what: string;
  duration: string;
  /** The environment variable, or null when there is none (`settingText` says why). */
  setting: string | null;
  settingText: string;
  end: string;
}

/** Every kind the contract knows has its texts (a new kind fails the type check here). */
const KINDS: Record<RetentionItem['kind'], { what: string; after: string | null; end: string }> = t.kinds;

export function retentionRows(items: readonly RetentionItem[]): RetentionRow[] {
  return items.map((item) => {
    const text = KINDS[item.kind];
    const off = item.days === 0;
    const duration = item.days === null ? t.notKept : off ? t.off : [t.days(item.days), text.after].filter(Boolean).join(' ');
    const settingText = item.setting ?? (item.days === null ? t.noSetting : t.fixedInCode);
    return { kind: item.kind, what: text.what, duration, setting: item.setting, settingText, end: off ? t.offEnd : text.end };
  });
}
