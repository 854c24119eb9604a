/** Makes a CSV file in the core and hands it to the user, telling how many rows it holds (or why it failed). */
import { ref } from 'vue';
import { useI18n } from 'vue-i18n';
import type { AppError, CsvFile } from '../../../src-shared/app-api';
import { downloadCsv } from '../logic/download';
import { useToastsStore } from '../stores/toasts';
import { useErrorText } from './errors';

export function useCsvDownload() {
  const { t } = useI18n();
  const toasts = useToastsStore();
  const errorText = useErrorText();
  const busy = ref(false);

  async function download(make: () => Promise<CsvFile>): Promise<void> {
    busy.value = true;
    try {
      const file = await make();
      downloadCsv(file.fileName, file.content);
      toasts.push({ kind: 'success', text: t('data.export.done', { n: file.rows, name: file.fileName }, file.rows) });
    } catch (e) {
      toasts.push({ kind: 'error', text: errorText.line(e as AppError) });
    } finally {
      busy.value = false;
    }
  }

  return { busy, download };
}
