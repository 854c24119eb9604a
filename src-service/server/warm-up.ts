/**
 * Warm-up before the service takes its first request: the code every request runs is run first on
 * made-up calls, so that V8 has compiled it before a client waits for it, and one scrypt runs on libuv's
 * pool, so that its threads and its 32 MiB are there before the first login. Nothing is written and no
 * real credential is involved: a login's first verification still costs one scrypt, by design.
 */
import {
  CATEGORY_TREE_LISTS,
  FLAT_RECORDS,
  OPERATIONS,
  OPERATION_NAMES,
  TRANSFER_PAIR_ELEMENTS,
  type FieldList,
  type OperationName,
  type ResultShape,
  type WireType,
} from '../../src-shared/catalog';
import { BINDINGS, buildFault, buildRequest, buildResponse, parseRequest, type Binding } from '../../src-shared/wire';
import type { Authenticator } from '../auth/authenticator';
import { awaited, type ServiceStore } from '../store';
import { answer } from './answer';

const SAMPLE: Record<WireType, unknown> = {
  long: 1,
  double: 12.5,
  boolean: true,
  string: 'Warm-up & more',
  dateTime: '2026-01-01T12:00:00',
};

const sampleOf = (fields: FieldList) => Object.fromEntries(fields.map((f) => [f.name, SAMPLE[f.type]]));

function sampleResult(shape: ResultShape): unknown {
  switch (shape.kind) {
    case 'list':
      return Array.from({ length: 50 }, () => sampleOf(FLAT_RECORDS[shape.record].fields));
    case 'single':
      return sampleOf(FLAT_RECORDS[shape.record].fields);
    case 'categoryTree': {
      const leaf = { Id: 2, Name: 'Leaf', ChildCategories: null };
      return Object.fromEntries(CATEGORY_TREE_LISTS.map((l) => [l, [{ Id: 1, Name: 'Root', ChildCategories: [leaf] }]]));
    }
    case 'transferPair':
      return Object.fromEntries(TRANSFER_PAIR_ELEMENTS.map((e) => [e, sampleOf(FLAT_RECORDS.apiTransaction2.fields)]));
  }
}

/**
 * How many times each call is read: the functions of the hot paths run thousands of times in all (every
 * field of every record), enough for V8's optimising tiers; about 0.1 s here (0.3 s under load).
 */
const ROUNDS = 40;

export async function warmUp(options: { namespace: string; timeZone: string; store: ServiceStore; auth: Authenticator }): Promise<void> {
  const { namespace, timeZone, store, auth } = options;
  const scrypt = auth.warmUp();
  const credentials = { clientKey: 'warm-up', login: 'warm-up', password: 'warm-up' };
  const readOptions = { namespace, timeZone };
  const calls = OPERATION_NAMES.flatMap((operation) =>
    BINDINGS.map((binding): [Binding, OperationName, ReturnType<typeof buildRequest>] => [
      binding,
      operation,
      buildRequest(binding, { operation, credentials, params: sampleOf(OPERATIONS[operation].params) as never }, namespace),
    ]),
  );
  const results = new Map(OPERATION_NAMES.map((operation) => [operation, sampleResult(OPERATIONS[operation].result)]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [binding, operation, req] of calls) {
      const [path, query] = req.path.split('?') as [string, string | undefined];
      const pathOperation = binding === 'httpGet' || binding === 'httpPost' ? path.slice(path.lastIndexOf('/') + 1) : undefined;
      parseRequest(
        binding,
        {
          method: req.method,
          pathOperation,
          query,
          contentType: req.headers['Content-Type'],
          soapAction: req.headers.SOAPAction,
          body: req.body,
        },
        readOptions,
      );
      // Lists of 50 are the common large answer; the rest once in a while.
      if (binding === 'soap12' || round % 10 === 0) {
        answer(buildResponse(binding, operation, results.get(operation) as never, namespace));
      }
    }
    if (round % 10 === 0) answer(buildFault('soap12', { code: 'Client', message: 'Warm-up' }));
    // The reads' statements on an account nobody has: nothing is found, the paths run.
    await store.read(function* (s) {
      yield* awaited(s.accounts.listFor(0));
      yield* awaited(s.transactions.last(0));
    });
    store.generation();
  }
  await scrypt;
}
