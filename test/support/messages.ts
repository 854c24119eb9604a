/**
 * The renderer's messages of both languages, read for a test file that shows either (the app reads a language's
 * messages when it first shows it: src-renderer/src/i18n/index.ts).
 */
import { loadMessages } from '../../src-renderer/src/i18n';

export async function readBothLanguages(): Promise<void> {
  await Promise.all([loadMessages('en'), loadMessages('cs')]);
}
