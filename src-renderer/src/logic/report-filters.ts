/** What a report covers, kept in the address so that Back from a drill-down shows the same report. */
import type { InputOf } from '../../../src-shared/app-api';
import { closedRange, periodFromQuery, periodToQuery, type Period, type PeriodPreset } from './periods';
import { accountIdsFromQuery } from './search-filters';

export const REPORT_PRESETS: readonly PeriodPreset[] = ['thisMonth', 'last3Months', 'last12Months', 'thisYear', 'lastYear', 'custom'];
export const DEFAULT_REPORT_PRESET = 'last12Months';

export interface ReportFilters {
  period: Period;
  /** The report's currency; unset: the core's default (that of most accounts). */
  currency?: number;
  /** Accounts of that currency; unset: all of them. */
  accountIds?: number[];
  includeTransfers: boolean;
}

type Query = Record<string, unknown>;

export function reportFromQuery(query: Query): ReportFilters {
  const currency = typeof query.cur === 'string' && /^\d{1,3}$/.test(query.cur) && Number(query.cur) > 0 ? Number(query.cur) : undefined;
  const accountIds = accountIdsFromQuery(query.acc);
  return {
    period: periodFromQuery(query, REPORT_PRESETS, DEFAULT_REPORT_PRESET),
    ...(currency === undefined ? {} : { currency }),
    ...(accountIds === undefined ? {} : { accountIds }),
    includeTransfers: query.transfers === '1',
  };
}

export function reportToQuery(f: ReportFilters): Record<string, string> {
  return {
    ...periodToQuery(f.period),
    ...(f.currency === undefined ? {} : { cur: String(f.currency) }),
    ...(f.accountIds?.length ? { acc: f.accountIds.join(',') } : {}),
    ...(f.includeTransfers ? { transfers: '1' } : {}),
  };
}

/** The report call for these filters on `today`. */
export function reportInput(f: ReportFilters, today: string): InputOf<'getReport'> {
  return {
    ...closedRange(f.period, today, DEFAULT_REPORT_PRESET),
    ...(f.currency === undefined ? {} : { currency: f.currency }),
    ...(f.accountIds?.length ? { accountIds: f.accountIds } : {}),
    includeTransfers: f.includeTransfers,
  };
}
