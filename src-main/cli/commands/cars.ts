/** `cars`: the cars of this local copy. */
import { listing } from '../command';
import * as fmt from '../format';

export const cars = listing(
  'cars',
  'Lists your cars (the service knows cars only by their CarId).',
  (core) => core.listCars(),
  fmt.carsText,
);
