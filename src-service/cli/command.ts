/** What a command of the service's command line is: its table entry (src-node/cli) and its handler. */
import type { CommandSpec, OptionTable, OptionValues } from '../../src-node/cli';

export interface ServiceCommand<O extends OptionTable = OptionTable> extends CommandSpec<O, readonly []> {
  run(options: OptionValues<O>): Promise<void> | void;
}

/** A command of any table; its handler's values are typed where it is defined (defineCommand). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyServiceCommand = ServiceCommand<any>;

export function defineCommand<const O extends OptionTable>(command: ServiceCommand<O>): ServiceCommand<O> {
  return command;
}

/** Every command works on one store: see store.ts. */
export { storeOptions, storeOf } from './store';
export const loginOption = { type: 'string', value: '<login>', description: 'the user', required: true } as const;

/** Where the password comes from, for the commands that set one. */
export const PASSWORD_NOTE = 'The password comes from BOOKKEEPING_PASSWORD, or is asked for on a terminal.';
