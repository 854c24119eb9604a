/** Transaction templates (define-transactions), read only: the service's admins manage them. */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { TemplateView } from '../../../src-shared/app-api';
import { api } from '../api';
import { createLoader } from './loader';

export const useTemplatesStore = defineStore('templates', () => {
  const templates = ref<TemplateView[]>([]);
  const loader = createLoader(
    () => api().listTemplates(),
    (list) => (templates.value = list),
  );
  return { templates, loading: loader.loading, loaded: loader.loaded, error: loader.error, load: loader.load };
});
