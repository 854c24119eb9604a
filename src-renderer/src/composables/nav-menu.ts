/**
 * The main navigation: its items, the one the screen shown belongs to, and whether it is open as a menu
 * (in a narrow window it folds into a menu button in the header; wide, it is the sidebar and always shown).
 */
import { computed, ref } from 'vue';
import { useI18n } from 'vue-i18n';
import { useRoute } from 'vue-router';
import type { ShortcutId } from '../../../src-shared/shortcuts';
import type { IconName } from '../components/icons';
import { useStatusStore } from '../stores/status';

export interface NavItem {
  to: string;
  icon: IconName;
  label: string;
  count?: number;
  danger?: boolean;
  /** Other screens that belong to this item. */
  also?: string[];
  /** The keyboard shortcut that opens its screen, named to assistive technology. */
  shortcut?: ShortcutId;
}

/** Open as a menu (narrow windows only; the sidebar ignores it). One for the whole app. */
const open = ref(false);

/** An item as the table states it: its label's message key, and whether it counts the outbox's writes. */
type NavEntry = Omit<NavItem, 'label' | 'count' | 'danger'> & { labelKey: string; outbox?: boolean };

const GROUPS: NavEntry[][] = [
  [
    { to: '/accounts', icon: 'accounts', labelKey: 'nav.accounts' },
    { to: '/transfer', icon: 'transfer', labelKey: 'nav.transfer' },
    { to: '/templates', icon: 'template', labelKey: 'nav.templates' },
    { to: '/categories', icon: 'category', labelKey: 'nav.categories' },
  ],
  [
    { to: '/register', icon: 'register', labelKey: 'nav.register' },
    { to: '/reports', icon: 'chart', labelKey: 'nav.reports' },
    { to: '/budgets', icon: 'budget', labelKey: 'budgets.nav' },
    { to: '/search', icon: 'search', labelKey: 'nav.search' },
  ],
  [
    { to: '/cars', icon: 'car', labelKey: 'nav.cars' },
    { to: '/pump', icon: 'fuel', labelKey: 'nav.pump', shortcut: 'pump' },
  ],
  [
    { to: '/outbox', icon: 'outbox', labelKey: 'nav.outbox', outbox: true },
    { to: '/data', icon: 'database', labelKey: 'nav.data' },
    // The connection is changed from Settings: its screen belongs there.
    { to: '/settings', icon: 'settings', labelKey: 'nav.settings', also: ['/connect'] },
  ],
];

export function useNavMenu() {
  const { t } = useI18n();
  const route = useRoute();
  const status = useStatusStore();
  const item = ({ labelKey, outbox, ...entry }: NavEntry): NavItem => ({
    ...entry,
    label: t(labelKey),
    ...(outbox ? { count: status.queued, danger: status.attention > 0 } : {}),
  });
  const groups = computed<NavItem[][]>(() => GROUPS.map((group) => group.map(item)));
  /**
   * The item the screen shown belongs to (an account belongs to Accounts, a car's statistics to Cars). Found in
   * the table, so that the header's label translates that one item, not the whole navigation.
   */
  const current = computed(() => {
    const under = (path: string) => route.path === path || route.path.startsWith(`${path}/`);
    const entry = GROUPS.flat().find((e) => under(e.to) || e.also?.some(under));
    return entry ? item(entry) : null;
  });
  return {
    groups,
    current,
    open,
    toggle: () => (open.value = !open.value),
    close: () => (open.value = false),
  };
}
