/** Screens by address (hash history: the app is served from a file or a local shell, not a web server). */
import { createRouter, createWebHashHistory, type RouteRecordRaw } from 'vue-router';
import { useStatusStore } from './stores/status';
import AccountsView from './views/AccountsView.vue';
import AccountView from './views/AccountView.vue';
import BudgetsView from './views/BudgetsView.vue';
import CarsView from './views/CarsView.vue';
import CarView from './views/CarView.vue';
import CategoriesView from './views/CategoriesView.vue';
import ConnectView from './views/ConnectView.vue';
import DataView from './views/DataView.vue';
import FuelStatsView from './views/FuelStatsView.vue';
import OutboxView from './views/OutboxView.vue';
import PumpView from './views/PumpView.vue';
import RegisterView from './views/RegisterView.vue';
import ReportsView from './views/ReportsView.vue';
import SearchView from './views/SearchView.vue';
import SettingsView from './views/SettingsView.vue';
import TemplatesView from './views/TemplatesView.vue';
import TransferView from './views/TransferView.vue';

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
