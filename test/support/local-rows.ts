/** Records of the local copy as tests write them out: every field, defaults for those a test does not care about. */
import type { AccountRow } from '../../src-main/core/store';

export function accountRow(over: Partial<AccountRow> & Pick<AccountRow, 'id'>): AccountRow {
  return {
    name: 'A',
    description: '',
    type: 2,
    currency: 203,
    isActive: true,
    locked: false,
    isHidden: false,
    ord: 0,
    permission: 3,
    balance: '0',
    ...over,
  };
}
