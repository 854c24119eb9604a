/** Stored rows as the interface's records (minor units back to doubles, 0/1 to booleans, null ids to 0). */
import type { ApiAccount2, ApiCarFuel, ApiDefineTransaction2, ApiTransaction2 } from '../../src-shared/catalog';
import { unchanging } from '../../src-shared/wire';
import { minorToAmount, type AccountRow, type RefuelingRow, type TemplateRow, type TransactionRow } from '../store';

export function apiAccount(row: AccountRow): ApiAccount2 {
  return {
    Id: row.id,
    Name: row.name,
    Type: row.type,
    Currency: row.currency,
    IsActive: row.is_active === 1,
    Locked: row.locked === 1,
    Description: row.description,
    Ord: row.ord,
    UserAccountPermission: row.permission,
    Amount: minorToAmount(row.balance_minor, row.currency),
    IsHidden: row.is_hidden === 1,
  };
}

/**
 * The records made of kept rows (frozen: see TransactionStore), by the very row object, made unchanging
 * in turn so that the codec keeps their XML: a list of kept rows is answered without building anything.
 * Weakly: a record lives as long as its row is kept (in the keep or in a kept list), and no count of
 * entries needs a limit (a Map by id, emptied whole at 20,000 entries, was emptied every few seconds
 * under the benchmark's 2,000 new rows a second, and every list then built its 50 records and XML anew).
 */
const transactionRecords = new WeakMap<TransactionRow, { currency: number; record: ApiTransaction2 }>();

/** A transaction of an account in `currency`. */
export function apiTransaction(row: TransactionRow, currency: number): ApiTransaction2 {
  if (!Object.isFrozen(row)) return transactionRecord(row, currency);
  const known = transactionRecords.get(row);
  if (known !== undefined && known.currency === currency) return known.record;
  const record = unchanging(transactionRecord(row, currency));
  transactionRecords.set(row, { currency, record });
  return record;
}

function transactionRecord(row: TransactionRow, currency: number): ApiTransaction2 {
  return {
    Id: row.id,
    Id_User: row.user_id,
    Id_UserCreated: row.created_by,
    Id_Account: row.account_id,
    PaymentDate: row.payment_date,
    Type: row.type,
    Amount: minorToAmount(row.amount_minor, currency),
    Description: row.description,
    Id_Category: row.category_id ?? 0,
  };
}

export function apiDefineTransaction(row: TemplateRow): ApiDefineTransaction2 {
  return {
    Id: row.id,
    Id_User: row.user_id,
    Id_UserCreated: row.created_by,
    Id_Account: row.account_id,
    Type: row.type,
    Amount: minorToAmount(row.amount_minor, row.currency),
    Description: row.description,
    Id_Category: row.category_id ?? 0,
    Ord: row.ord,
  };
}

export function apiCarFuel(row: RefuelingRow): ApiCarFuel {
  return {
    Id: row.id,
    Id_UserCreated: row.created_by,
    DateOfPurchase: row.date_of_purchase,
    Id_Car: row.car_id,
    Tachometer: row.tachometer,
    Liter: row.liter,
    Price: minorToAmount(row.price_minor, row.currency),
    Description: row.description,
    Currency: row.currency,
    Rate: row.rate,
  };
}
