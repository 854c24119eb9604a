/** The rules that several records' fields share (src-shared/validate), so that each is written once. */
import { v } from '../validate';

/** A name a user gives (an account's, a category's, a car's). */
export const name = () => v.text({ min: 1, max: 100, trim: true });
/** A note. */
export const description = () => v.text({ max: 1000 });
/** A type code: the service's field is a long; any whole number a double holds exactly. */
export const code = () => v.whole({ min: 0 });
/** An ISO 4217 numeric code. */
export const currency = () => v.whole({ min: 1, max: 999 });
