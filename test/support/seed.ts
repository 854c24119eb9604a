/**
 * The seed of a randomized test: fixed by default, so that every run draws the same cases and a failure
 * is a failure of the code, not of the draw; the environment variable `name` chooses another (to repeat a
 * failure seen with it, or to explore). Printed either way, with how to repeat the run.
 */
export function testSeed(name: string, fallback: number): number {
  const given = process.env[name];
  const seed = given === undefined || given === '' ? fallback : Number(given);
  if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`${name} must be a whole number of 0 or more, not ${JSON.stringify(given)}`);
  console.log(`${name}=${seed}${seed === fallback ? ' (the default)' : ''}: run again with ${name}=${seed} to draw the same cases`);
  return seed;
}
