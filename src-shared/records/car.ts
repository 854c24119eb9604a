/** A car: the service has no car list, only car numbers (CarId); a car is a number the user named here. */
import { v } from '../validate';
import { defineRecord, field, type Stored } from './fields';
import { name } from './rules';

export const CAR = defineRecord('car', {
  carId: field({ type: 'integer', column: 'car_id', input: v.whole({ min: 1 }) }),
  name: field({ type: 'text', column: 'name', input: name() }),
});

export type CarStored = Stored<typeof CAR>;
