/**
 * The command-line kit of the app's command line, the service's and the browser shell: one table per
 * command, one parser (node:util parseArgs), help printed from the table, and the secret prompt.
 * Node only; the renderer never imports it.
 */
export * from './table';
export {
  UsageError,
  asksForHelp,
  parseCommand,
  readArgs,
  readValues,
  resolveCommand,
  sentenceStart,
  type RawArgs,
  type Resolved,
} from './parse';
export { commandHelp, groupHelp, programHelp, usageLine } from './help';
export { promptSecret } from './prompt';
export { CLIENT_KEY_ENV, readKeyFile, refuseKeyInArguments, refusedKeyOption } from './client-key';
