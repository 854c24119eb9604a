import { createPinia } from 'pinia';
import { createApp } from 'vue';
import { installApi, toAppError } from './api';
import { detectApi } from './api/bridge';
import App from './App.vue';
import { i18n } from './i18n';
import { createAppRouter } from './router';
import { useCoreEventsStore } from './stores/core-events';
import { usePreferencesStore } from './stores/preferences';
import { useReachabilityStore } from './stores/reachability';
import FatalView from './views/FatalView.vue';
import './styles/base.css';

async function start(): Promise<void> {
  const pinia = createPinia();
  try {
    installApi(await detectApi());
  } catch (error) {
    createApp(FatalView, { error: toAppError(error) })
      .use(pinia)
      .use(i18n)
      .mount('#app');
    return;
  }
  const app = createApp(App).use(pinia).use(i18n);
  // Status and preferences decide the first screen, its language and theme: read them before showing anything.
  await Promise.all([useCoreEventsStore(pinia).start(), usePreferencesStore(pinia).load()]);
  app.use(createAppRouter());
  app.mount('#app');
  // The badge asks whether the service answers when the window gains focus, the network changes, or it says unreachable.
  useReachabilityStore(pinia).start();
}

void start();
