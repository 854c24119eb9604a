/** The command line's commands, in the order help lists them: one module each, its table entry beside its handler. */
import type { GroupSpec } from '../../../src-node/cli';
import type { AnyCliCommand } from '../command';
import { accounts } from './accounts';
import { addAccount } from './add-account';
import { addCategory } from './add-category';
import { backup } from './backup';
import { budget } from './budget';
import { car } from './car';
import { carCost } from './car-cost';
import { cars } from './cars';
import { categories } from './categories';
import { connect } from './connect';
import { diagnostics } from './diagnostics';
import { editAccount } from './edit-account';
import { editRefuel } from './edit-refuel';
import { exportCsv } from './export';
import { fuelStats } from './fuel-stats';
import { importRefuelings } from './import-refuelings';
import { outbox } from './outbox';
import { recover } from './recover';
import { refuel } from './refuel';
import { refuelings } from './refuelings';
import { reminders } from './reminders';
import { renameCategory } from './rename-category';
import { restore } from './restore';
import { status } from './status';
import { sync } from './sync';
import { templates } from './templates';
import { transactions } from './transactions';
import { transfer } from './transfer';

export const COMMANDS: readonly (AnyCliCommand | GroupSpec<AnyCliCommand>)[] = [
  recover,
  connect,
  diagnostics,
  status,
  sync,
  accounts,
  transactions,
  categories,
  templates,
  cars,
  car,
  refuelings,
  addAccount,
  editAccount,
  transfer,
  addCategory,
  renameCategory,
  refuel,
  editRefuel,
  backup,
  restore,
  exportCsv,
  fuelStats,
  budget,
  importRefuelings,
  carCost,
  reminders,
  outbox,
];
