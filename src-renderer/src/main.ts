import { createPinia } from 'pinia';
import { createApp } from 'vue';
import { installApi, toAppError } from './api';
import { callsInFlight, detectApi } from './api/bridge';
import App from './App.vue';
import { inTurn } from './composables/in-turn';
import { prepareCountFormat } from './format/count';
import { warmIntl } from './format/intl-warm';
import { i18n, loadMessages } from './i18n';
import { prefetchWhenIdle } from './logic/idle-prefetch';
import { createAppRouter, SCREEN_CHUNKS } from './router';
import { useCoreEventsStore } from './stores/core-events';
import { systemLanguage, usePreferencesStore } from './stores/preferences';
import { useReachabilityStore } from './stores/reachability';
import FatalView from './views/FatalView.vue';
import './styles/base.css';

async function start(): Promise<void> {
  // Off the page's thread while the core is asked what to show: the page's first Intl object's 20-30 ms.
  const intlWarmed = warmIntl();
  const pinia = createPinia();
  try {
    installApi(await detectApi());
  } catch (error) {
    // FatalView speaks the system's language.
    await loadMessages(systemLanguage(navigator.languages ?? [navigator.language]));
    createApp(FatalView, { error: toAppError(error) })
      .use(pinia)
      .use(i18n)
      .mount('#app');
    return;
  }
  const app = createApp(App).use(pinia).use(i18n);
  // The router (its history reads and rewrites the address) is made while the first answers are awaited, not in
  // the task that mounts the app.
  const router = createAppRouter();
  // Status and preferences decide the first screen, its language and theme: read them (and that language's
  // messages) before showing anything.
  const prefs = usePreferencesStore(pinia);
  const read = Promise.all([useCoreEventsStore(pinia).start(), prefs.load()]).then(() => loadMessages(prefs.language));
  await Promise.all([read, intlWarmed]);
  // Mounted in a task of its own: the last of those to arrive (most often the language's messages, whose module
  // evaluates in its task) would otherwise run the mount's 10-13 ms of the page's CPU in the same task.
  await new Promise<void>((resolve) => inTurn(resolve));
  app.use(router);
  app.mount('#app');
  // In a task of its own while the first screen's data is read: the number data its rows need.
  setTimeout(() => prepareCountFormat(i18n.global.locale.value), 0);
  // Once the first screen has its answers, the other screens' chunks, read ahead one at a time in idle time; then the
  // badge's watch (it asks whether the service answers now, when the window gains focus, the network changes, or it
  // says unreachable). Its first check waits for both: an answer that changes the badge reloads the screens' data,
  // work the opening does not share its cores with, and a check in flight (up to the service's timeout) would hold
  // the chunks back, which are read only while no call is.
  void router
    .isReady()
    .then(() => prefetchWhenIdle(SCREEN_CHUNKS, { ready: () => callsInFlight() === 0 }))
    .then(() => useReachabilityStore(pinia).start());
}

// In a task of its own, not in the one that evaluates the app's modules (13-25 ms of the page's CPU): the first
// calls' start (the shell's key, status, preferences, the Intl worker) does not lengthen that one.
setTimeout(() => void start(), 0);
