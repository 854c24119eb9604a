/**
 * The operator functions on a SQLite data file, synchronously (as tests and the desktop app's test
 * support use them): each opens the file (creating and migrating it when needed), runs in one IMMEDIATE
 * transaction and closes it again, so it is safe while the service serves the same file.
 */
import { writeOnFile } from '../store';
import { wrapOperators, type FlowResult, type Operators } from './operators';

/** Runs `flow` in one write on the data file. */
export const onFile = writeOnFile;

type OnFile = { [N in keyof Operators]: (dataFile: string, ...args: Parameters<Operators[N]>) => FlowResult<Operators[N]> };

const ON_FILE = wrapOperators(
  (make) =>
    (dataFile: string, ...args: unknown[]) =>
      onFile(dataFile, make(...args)),
) as OnFile;

export const {
  addClient,
  isClientRegistered,
  setClientEnabled,
  addUser,
  setPassword,
  shareAccount,
  addAccount,
  addTransaction,
  addCategory,
  addTemplate,
  addRefueling,
  createDemoData,
} = ON_FILE;
