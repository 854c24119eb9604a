/**
 * The service's storage behind one seam (seam.ts): SQLite (sqlite/, the embedded default) or
 * PostgreSQL (postgres/), chosen by where the data is (location.ts). The tables (schema.ts), the rows and
 * keys (rows.ts), the statements (statements.ts, with what the two say differently in dialect.ts) and the
 * seam's areas on them (data.ts, transactions.ts) are written once for both; money is in integer minor
 * units (money.ts).
 */
export * from './rows';
export * from './seam';
export { awaited, run, runFlow, runNow, type Flow, type Maybe } from './flow';
export { describeLocation, isPostgresUrl, urlPassword, type StoreLocation } from './location';
export { MAX_MINOR, amountToMinor, minorToAmount } from './money';
export { DataFileError, openDatabase, type Db } from './sqlite/database';
export { Store } from './sqlite/store';
export { openAdminStore, openServiceStore, writeOnFile, type AdminStore, type ServiceStoreOptions } from './open';
