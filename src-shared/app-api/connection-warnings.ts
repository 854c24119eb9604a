/**
 * What a test of a service address warns of before credentials go to it, as data like an error
 * (`{ code, params }`): the screens word it (i18n `connectionWarning.*`, checked against this table's codes),
 * the command line in this table's English.
 */
import type { OperationName } from '../catalog';

export const CONNECTION_WARNINGS = {
  /** http:// to another machine: the credentials would travel unencrypted. */
  insecureAddress: (_: Record<never, never>) =>
    'This address uses plain http:// to another machine: the client key, login and password travel unencrypted in every request. Use https:// if the service offers it.',
  /** The service lacks the newer variant of an operation; the app falls back to the older one. */
  olderOperation: (p: { wanted: OperationName; used: OperationName }) => `The service lacks ${p.wanted}; the app uses the older ${p.used}.`,
  /** The service lacks an operation the app needs (every variant of it, listed with commas). */
  operationMissing: (p: { operations: string }) => `The service lacks ${p.operations}; what needs it will fail.`,
} as const;

export type ConnectionWarningCode = keyof typeof CONNECTION_WARNINGS;
export type ConnectionWarning = {
  [K in ConnectionWarningCode]: { code: K; params: Parameters<(typeof CONNECTION_WARNINGS)[K]>[0] };
}[ConnectionWarningCode];

/** A warning in English words, as the command line says it. */
export const warningText = (w: ConnectionWarning): string =>
  (CONNECTION_WARNINGS[w.code] as (p: ConnectionWarning['params']) => string)(w.params);
