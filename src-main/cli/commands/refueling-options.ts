/** The options that give a refueling's fields, shared by `refuel` (which needs some) and `edit-refuel` (which needs none). */
import type { OptionSpec } from '../../../src-node/cli';
import { currencyArg, integerArg } from '../values';

export const REFUELING_OPTIONS = {
  car: { type: 'string', value: '<carId>', description: 'the car', read: integerArg },
  liter: { type: 'string', value: '<decimal>', description: 'litres, at most 3 decimals' },
  price: { type: 'string', value: '<decimal>', description: 'the price paid, in the currency' },
  tachometer: { type: 'string', value: '<km>', description: 'the odometer reading', read: integerArg },
  // One reading of a currency for every command that takes one (refuel, edit-refuel, import-refuelings).
  currency: {
    type: 'string',
    value: '<CZK|203>',
    description: 'the currency, as its code (CZK) or ISO 4217 number (203)',
    read: currencyArg,
  },
  rate: { type: 'string', value: '<decimal>', description: 'the exchange rate to your own currency, at most 6 decimals' },
  date: { type: 'string', value: '<YYYY-MM-DDTHH:mm>', description: 'when' },
  description: { type: 'string', value: '<text>', description: 'a note, such as the station' },
} as const satisfies Record<string, OptionSpec>;

/** The refueling field each option sets. */
export const REFUELING_FIELD_OF = {
  car: 'carId',
  liter: 'liter',
  price: 'price',
  tachometer: 'tachometer',
  currency: 'currency',
  rate: 'rate',
  date: 'dateOfPurchase',
  description: 'description',
} as const satisfies Record<keyof typeof REFUELING_OPTIONS, string>;

/** An option of the table that must be given. */
export function requiredOption<S extends OptionSpec>(spec: S): S & { readonly required: true } {
  return { ...spec, required: true };
}
