/** Screens by address (hash history: the app is served from a file or a local shell, not a web server). */
import { createRouter, createWebHashHistory, type RouteComponent, type RouteRecordRaw } from 'vue-router';
import type { ChunkLoader } from './logic/idle-prefetch';
import { useStatusStore } from './stores/status';
import AccountsView from './views/AccountsView.vue';
import ConnectView from './views/ConnectView.vue';

// The first screen (the accounts, or connecting on a first run) comes with the app; every other screen is read
// when first opened, so that opening the app compiles and runs only what the accounts need.
const AccountView = () => import('./views/AccountView.vue');
const BudgetsView = () => import('./views/BudgetsView.vue');
const CarsView = () => import('./views/CarsView.vue');
const CarView = () => import('./views/CarView.vue');
const CategoriesView = () => import('./views/CategoriesView.vue');
const DataView = () => import('./views/DataView.vue');
const FuelStatsView = () => import('./views/FuelStatsView.vue');
const OutboxView = () => import('./views/OutboxView.vue');
const PumpView = () => import('./views/PumpView.vue');
const RegisterView = () => import('./views/RegisterView.vue');
const ReportsView = () => import('./views/ReportsView.vue');
const SearchView = () => import('./views/SearchView.vue');
const SettingsView = () => import('./views/SettingsView.vue');
const TemplatesView = () => import('./views/TemplatesView.vue');
const TransferView = () => import('./views/TransferView.vue');

declare module 'vue-router' {
  interface RouteMeta {
    /** Message key of the screen's title (document title and focus target). */
    title: string;
  }
}

const routes: RouteRecordRaw[] = [
  { path: '/', redirect: '/accounts' },
  { path: '/connect', component: ConnectView, meta: { title: 'connect.title' } },
  { path: '/accounts', component: AccountsView, meta: { title: 'accounts.title' } },
  // Accounts created offline have temporary negative ids until a sync.
  { path: '/accounts/:id(-?\\d+)', component: AccountView, props: (r) => ({ id: Number(r.params.id) }), meta: { title: 'account.title' } },
  { path: '/register', component: RegisterView, meta: { title: 'register.title' } },
  { path: '/transfer', component: TransferView, meta: { title: 'transfer.title' } },
  { path: '/templates', component: TemplatesView, meta: { title: 'templates.title' } },
  { path: '/categories', component: CategoriesView, meta: { title: 'categories.title' } },
  { path: '/cars', component: CarsView, meta: { title: 'cars.title' } },
  { path: '/cars/:carId(\\d+)', component: CarView, props: (r) => ({ carId: Number(r.params.carId) }), meta: { title: 'car.title' } },
  {
    path: '/cars/:carId(\\d+)/stats',
    component: FuelStatsView,
    props: (r) => ({ carId: Number(r.params.carId) }),
    meta: { title: 'fuel.title' },
  },
  { path: '/pump', component: PumpView, meta: { title: 'pump.title' } },
  { path: '/reports', component: ReportsView, meta: { title: 'reports.title' } },
  { path: '/budgets', component: BudgetsView, meta: { title: 'budgets.title' } },
  { path: '/search', component: SearchView, meta: { title: 'search.title' } },
  { path: '/data', component: DataView, meta: { title: 'data.title' } },
  { path: '/outbox', component: OutboxView, meta: { title: 'outbox.title' } },
  { path: '/settings', component: SettingsView, meta: { title: 'settings.title' } },
  { path: '/:rest(.*)*', redirect: '/accounts' },
];

/** A route's component read when first opened (a function answering its module), not one that comes with the app. */
const isLazy = (c: RouteRecordRaw['component']): c is () => Promise<RouteComponent> => typeof c === 'function';

/**
 * The chunks idle time reads ahead once the first screen is shown (logic/idle-prefetch.ts), one at a time:
 * the charts' library (a third of a megabyte, shared by the reports and the fuel statistics) on its own
 * first, so that no one load compiles and runs it together with a screen, then every screen in the order
 * of the routes.
 */
export const SCREEN_CHUNKS: readonly ChunkLoader[] = [
  () => import('./charts/ChartCanvas.vue'),
  ...new Set(routes.map((r) => r.component).filter(isLazy)),
];

export function createAppRouter() {
  const router = createRouter({ history: createWebHashHistory(), routes });
  // First run: nothing but the connect screen until the user connects or chooses to work offline.
  router.beforeEach((to) => {
    const status = useStatusStore();
    if (status.needsSetup && to.path !== '/connect') return '/connect';
    return true;
  });
  return router;
}
