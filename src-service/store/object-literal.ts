/**
 * Functions that return one object literal, made once from a list of keys and the expressions of their
 * values: the rows a statement answers (schema.ts) and the records made of them (operations/records.ts).
 * Every object such a function returns has one shape in V8 and is built as fast as code written out by
 * hand, where a loop setting the keys one by one was ten times slower; the rows and records of the hot
 * lists are built this way, fifty to an answer.
 */

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A key or a value's property name as the made code holds it: only plain identifiers are taken. */
export function identifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`Not a plain identifier: ${JSON.stringify(name)}`);
  return name;
}

/**
 * `(…params) => ({ key: expression, … })`. The keys and expressions are this program's constants (column
 * and field names, checked by `identifier` where they are put together); `scope` names the functions
 * the expressions call.
 */
export function literalFunction<F>(
  params: readonly string[],
  entries: readonly (readonly [key: string, expression: string])[],
  scope: Record<string, unknown> = {},
): F {
  const keys = entries.map(([k]) => identifier(k));
  if (new Set(keys).size !== keys.length) throw new Error(`A key is given twice: ${keys.join(', ')}`);
  const literal = entries.map(([k, e]) => `${k}: ${e}`).join(', ');
  const body = `return function (${params.map(identifier).join(', ')}) { return { ${literal} }; };`;
  return new Function(...Object.keys(scope), body)(...Object.values(scope)) as F;
}
