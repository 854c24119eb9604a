/** The dialect an export dialog starts from: the spreadsheet of the language the screens speak (Czech: Excel in Czech). */
import { ref, type Ref } from 'vue';
import { defaultCsvDialect, type CsvDialectName } from '../../../src-shared/csv-dialect';
import { useLocale } from './locale';

export function useCsvDialect(): Ref<CsvDialectName> {
  return ref(defaultCsvDialect(useLocale().value));
}
