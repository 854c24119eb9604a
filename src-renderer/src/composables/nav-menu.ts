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

export function useNavMenu() {
  const { t } = useI18n();
  const route = useRoute();
  const status = useStatusStore();
  const groups = computed<NavItem[][]>(() => [
    [
      { to: '/accounts', icon: 'accounts', label: t('nav.accounts') },
      { to: '/transfer', icon: 'transfer', label: t('nav.transfer') },
      { to: '/templates', icon: 'template', label: t('nav.templates') },
      { to: '/categories', icon: 'category', label: t('nav.categories') },
    ],
    [
      { to: '/register', icon: 'register', label: t('nav.register') },
      { to: '/reports', icon: 'chart', label: t('nav.reports') },
      { to: '/budgets', icon: 'budget', label: t('budgets.nav') },
      { to: '/search', icon: 'search', label: t('nav.search') },
    ],
    [
      { to: '/cars', icon: 'car', label: t('nav.cars') },
      { to: '/pump', icon: 'fuel', label: t('nav.pump'), shortcut: 'pump' },
    ],
    [
      { to: '/outbox', icon: 'outbox', label: t('nav.outbox'), count: status.queued, danger: status.attention > 0 },
      { to: '/data', icon: 'database', label: t('nav.data') },
      // The connection is changed from Settings: its screen belongs there.
      { to: '/settings', icon: 'settings', label: t('nav.settings'), also: ['/connect'] },
    ],
  ]);
  /** The item the screen shown belongs to (an account belongs to Accounts, a car's statistics to Cars). */
  const current = computed(() => {
    const under = (path: string) => route.path === path || route.path.startsWith(`${path}/`);
    return groups.value.flat().find((item) => under(item.to) || item.also?.some(under)) ?? null;
  });
  return {
    groups,
    current,
    open,
    toggle: () => (open.value = !open.value),
    close: () => (open.value = false),
  };
}
