/**
 * ISO 4217 currencies by numeric code: the codes our service uses for `Currency`, with the alphabetic
 * code for display and the number of minor-unit digits. A code not listed shows as `#<code>` with two
 * digits (the client rule of service-decisions.md).
 */
export interface CurrencyInfo {
  readonly numeric: number;
  readonly code: string;
  readonly digits: number;
}

const TABLE: readonly [number, string, number][] = [
  [203, 'CZK', 2],
  [978, 'EUR', 2],
  [840, 'USD', 2],
  [826, 'GBP', 2],
  [985, 'PLN', 2],
  [348, 'HUF', 2],
  [756, 'CHF', 2],
  [36, 'AUD', 2],
  [124, 'CAD', 2],
  [156, 'CNY', 2],
  [191, 'HRK', 2],
  [208, 'DKK', 2],
  [344, 'HKD', 2],
  [352, 'ISK', 0],
  [356, 'INR', 2],
  [392, 'JPY', 0],
  [410, 'KRW', 0],
  [414, 'KWD', 3],
  [484, 'MXN', 2],
  [554, 'NZD', 2],
  [578, 'NOK', 2],
  [643, 'RUB', 2],
  [702, 'SGD', 2],
  [710, 'ZAR', 2],
  [752, 'SEK', 2],
  [764, 'THB', 2],
  [784, 'AED', 2],
  [941, 'RSD', 2],
  [946, 'RON', 2],
  [949, 'TRY', 2],
  [975, 'BGN', 2],
  [980, 'UAH', 2],
  [986, 'BRL', 2],
  [48, 'BHD', 3],
  [512, 'OMR', 3],
  [788, 'TND', 3],
];

const BY_NUMERIC = new Map<number, CurrencyInfo>(TABLE.map(([numeric, code, digits]) => [numeric, { numeric, code, digits }]));

export const KNOWN_CURRENCIES: readonly CurrencyInfo[] = [...BY_NUMERIC.values()];

export function currencyInfo(numeric: number): CurrencyInfo | undefined {
  return BY_NUMERIC.get(numeric);
}

export function currencyDigits(numeric: number): number {
  return BY_NUMERIC.get(numeric)?.digits ?? 2;
}

/** The label of a currency code: `CZK`, or `#123` for a code this table does not know. */
export function currencyLabel(numeric: number): string {
  return BY_NUMERIC.get(numeric)?.code ?? `#${numeric}`;
}

export function isKnownCurrency(numeric: number): boolean {
  return BY_NUMERIC.has(numeric);
}
