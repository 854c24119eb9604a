/**
 * XML Schema types used on the wire, and the TypeScript value each one decodes to.
 *
 * `dateTime` travels through the code as a wall-clock string `YYYY-MM-DDTHH:mm:ss` with an optional
 * `.fff` fraction and never an offset: the codec converts offset-bearing input into a chosen zone, so
 * that every consumer sorts and compares plain strings.
 */
export type WireType = 'long' | 'double' | 'boolean' | 'dateTime' | 'string';

export interface WireValueOf {
  long: number;
  double: number;
  boolean: boolean;
  dateTime: string;
  string: string;
}

export interface FieldSpec<N extends string = string, T extends WireType = WireType> {
  readonly name: N;
  readonly type: T;
}

export type FieldList = readonly FieldSpec[];

/** The object type a list of fields describes, e.g. `{ Id: number; Name: string }`. */
export type ValuesOf<F extends FieldList> = {
  -readonly [P in F[number] as P['name']]: WireValueOf[P['type']];
};

export function field<const N extends string, const T extends WireType>(name: N, type: T): FieldSpec<N, T> {
  return { name, type };
}
