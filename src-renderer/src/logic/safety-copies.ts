/** How a safety copy's reason is worded: its i18n key (a migration's under one word, whatever schema it went to). */
const REASONS = ['after-sync', 'daily', 'before-restore'] as const;

export function safetyCopyReasonKey(reason: string): string {
  if (reason.startsWith('before-schema-')) return 'safetyCopy.reason.before-schema';
  return `safetyCopy.reason.${(REASONS as readonly string[]).includes(reason) ? reason : 'daily'}`;
}
