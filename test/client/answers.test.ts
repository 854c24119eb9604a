/**
 * The one classification of every answer (answers.ts) and the retry budget (retry.ts), as pure
 * functions: which answers are the service's verdict, in each binding, and which are transient; how
 * long to wait; when a sync gives up.
 */
import { describe, expect, it } from 'vitest';
import {
  CancelledError,
  FaultError,
  InvalidCredentialsError,
  MalformedResponseError,
  RetriesExhausted,
  RetryBudget,
  UnavailableError,
  backoffDelay,
  cancellableSleep,
  parseRetryAfter,
  readAnswer,
  withRetry,
  CallError,
  type HttpAnswer,
  type RetryWait,
} from '../../src-main/core/soap-client';
import { FAULT_SUBCODE_HEADER, buildFault, buildResponse, faultHeaders, type Binding, type FaultSpec } from '../../src-shared/wire';
import { caught } from '../support/caught';
import { settles } from '../support/until';

const NS = 'urn:example:bookkeeping';
const BINDINGS: Binding[] = ['soap12', 'soap11', 'httpGet', 'httpPost'];
const SOAP: Binding[] = ['soap12', 'soap11'];
const PLAIN: Binding[] = ['httpGet', 'httpPost'];

const answer = (status: number, contentType: string, body: string, retryAfter: string | null = null): HttpAnswer => ({
  status,
  contentType,
  body,
  retryAfter,
});
const read = (binding: Binding, a: HttpAnswer) => readAnswer('CategoryTree', a, { binding, timeZone: 'Europe/Prague', maxChars: 1 << 20 });
const failure = (binding: Binding, a: HttpAnswer): CallError => caught(() => read(binding, a), CallError);

describe('which answers are the service’s verdict', () => {
  it('a fault in the binding’s own form refuses the call, in every binding', () => {
    for (const binding of BINDINGS) {
      const wire = buildFault(binding, { code: 'Client', message: 'Id_Category: category 99 does not exist.' });
      const e = failure(binding, { ...wire, retryAfter: null });
      expect(e, binding).toBeInstanceOf(FaultError);
      expect(e.isVerdict).toBe(true);
      expect(e.transient).toBe(false);
      expect(e.message).toBe('Id_Category: category 99 does not exist.');
    }
  });

  /**
   * A fault as a service sends it in `binding`, its subcode (GET, POST) in the header the transports read. Ours
   * leaves a SOAP 1.1 fault's detail empty, as the service decisions fix it; a service that marks one there
   * (an element in the API's namespace) is read the same way.
   */
  const sent = (binding: Binding, fault: FaultSpec): HttpAnswer => {
    const wire = buildFault(binding, fault, NS);
    const body =
      binding === 'soap11' && fault.subcode
        ? wire.body.replace('<detail />', `<detail><${fault.subcode} xmlns="${NS}" /></detail>`)
        : wire.body;
    return { ...wire, body, retryAfter: null, faultSubcode: faultHeaders(wire)[FAULT_SUBCODE_HEADER] ?? null };
  };
  const read12 = (a: HttpAnswer, namespace: string) =>
    caught(() => readAnswer('CategoryTree', a, { binding: 'soap12', timeZone: 'Europe/Prague', maxChars: 1 << 20, namespace }), CallError);

  it('a fault marked InvalidCredentials is InvalidCredentialsError in every binding, whatever its words', () => {
    for (const binding of BINDINGS) {
      for (const message of ['Invalid credentials', 'Přihlášení se nezdařilo.', 'Zugang verweigert']) {
        const e = failure(binding, sent(binding, { code: 'Client', message, subcode: 'InvalidCredentials' }));
        expect(e, `${binding}: ${message}`).toBeInstanceOf(InvalidCredentialsError);
        expect(e.kind).toBe('auth');
        expect(e.message).toBe(message);
      }
    }
  });

  it('a fault whose words speak of a password but that is not marked is the service refusing the call', () => {
    for (const binding of BINDINGS) {
      for (const message of ['Wrong password length: a password is 8 to 128 characters.', 'Unauthorized: account 7 is read-only.']) {
        const e = failure(binding, sent(binding, { code: 'Client', message }));
        expect(e, `${binding}: ${message}`).toBeInstanceOf(FaultError);
        expect(e, `${binding}: ${message}`).not.toBeInstanceOf(InvalidCredentialsError);
      }
    }
  });

  it('an older service of ours, which marks nothing: exactly its credentials fault is refused credentials', () => {
    for (const binding of BINDINGS) {
      const older = (message: string): HttpAnswer => ({ ...buildFault(binding, { code: 'Client', message }), retryAfter: null });
      expect(failure(binding, older('Invalid credentials')), binding).toBeInstanceOf(InvalidCredentialsError);
      expect(failure(binding, older('Invalid credentials: client key unknown')), binding).not.toBeInstanceOf(InvalidCredentialsError);
    }
  });

  it('a subcode counts only in the API namespace, and an unknown one marks nothing', () => {
    const marked = sent('soap12', { code: 'Client', message: 'Refused.', subcode: 'InvalidCredentials' });
    expect(read12(marked, NS)).toBeInstanceOf(InvalidCredentialsError);
    expect(read12(marked, 'urn:other')).not.toBeInstanceOf(InvalidCredentialsError);
    const unknown = { ...marked, body: marked.body.replace('api:InvalidCredentials', 'api:AccountLocked') };
    expect(read12(unknown, NS)).not.toBeInstanceOf(InvalidCredentialsError);
    const plain = { ...sent('httpGet', { code: 'Client', message: 'Refused.' }), faultSubcode: 'Something' };
    expect(failure('httpGet', plain)).not.toBeInstanceOf(InvalidCredentialsError);
  });

  it('a good answer is read in every binding', () => {
    const tree = { FavoritCategories: [], AllCategories: [{ Id: 1, Name: 'Home', ChildCategories: null }] };
    for (const binding of BINDINGS) {
      const wire = buildResponse(binding, 'CategoryTree', tree, NS);
      expect(read(binding, { ...wire, retryAfter: null }), binding).toEqual(tree);
    }
  });

  it('plain text is the service’s error only on the GET and POST bindings, and only as the service answers errors', () => {
    const text = answer(500, 'text/plain; charset=utf-8', 'Missing parameter: AccountId.');
    for (const binding of PLAIN) expect(failure(binding, text), binding).toBeInstanceOf(FaultError);
    for (const binding of SOAP) {
      const e = failure(binding, text);
      expect(e, binding).toBeInstanceOf(MalformedResponseError);
      expect(e.transient).toBe(true);
    }
    // A 500 page without text, or plain text at a status the service never answers errors with, is no verdict.
    for (const binding of PLAIN) {
      expect(failure(binding, answer(500, 'text/plain', '   ')).transient, binding).toBe(true);
      expect(failure(binding, answer(507, 'text/plain', 'Insufficient Storage')).transient, binding).toBe(true);
    }
  });
});

describe('everything else is transient', () => {
  it('408, 429, 502, 503 and 504 are "unavailable" whatever the body, a SOAP fault included', () => {
    const fault = buildFault('soap12', { code: 'Receiver', message: 'upstream busy' } as never);
    for (const status of [408, 429, 502, 503, 504]) {
      for (const binding of BINDINGS) {
        for (const a of [
          answer(status, 'text/plain', 'Service Unavailable'),
          answer(status, fault.contentType, fault.body),
          answer(status, 'text/html', '<html>busy</html>'),
        ]) {
          const e = failure(binding, a);
          expect(e, `${status} ${binding}`).toBeInstanceOf(UnavailableError);
          expect(e.transient).toBe(true);
          expect(e.isVerdict).toBe(false);
          expect(e.outcomeUnknown).toBe(true);
        }
      }
    }
  });

  it('the 503 in plain text of a reverse proxy is never a refusal (the reported bug)', () => {
    for (const binding of BINDINGS) {
      const e = failure(binding, answer(503, 'text/plain', 'Service Unavailable'));
      expect(e).toBeInstanceOf(UnavailableError);
      expect(e.message).toBe('The service is unavailable (HTTP 503 Service Unavailable).');
    }
  });

  it('an HTML page, at any status, names itself', () => {
    for (const binding of BINDINGS) {
      for (const [status, type] of [
        [200, 'text/html'],
        [500, 'text/html; charset=utf-8'],
        [200, 'text/xml'],
      ] as const) {
        const e = failure(
          binding,
          answer(status, type, '<!DOCTYPE html>\n<html><head><title>Hotel Wi-Fi - log in</title></head><body/></html>'),
        );
        expect(e, `${binding} ${status} ${type}`).toBeInstanceOf(MalformedResponseError);
        expect(e.transient).toBe(true);
        expect(e.message).toContain('a web page ("Hotel Wi-Fi - log in")');
      }
    }
  });

  it('an empty body, truncated XML and garbage are malformed answers', () => {
    const good = buildResponse('soap12', 'CategoryTree', { FavoritCategories: [], AllCategories: [] }, NS);
    for (const a of [
      answer(200, good.contentType, ''),
      answer(200, good.contentType, good.body.slice(0, good.body.length / 2)),
      answer(200, good.contentType, '\u0000%%'),
    ]) {
      const e = failure('soap12', a);
      expect(e).toBeInstanceOf(MalformedResponseError);
      expect(e.transient).toBe(true);
    }
    expect(failure('soap12', answer(200, good.contentType, '')).message).toMatch(/The answer was empty/);
  });

  it('carries the Retry-After it was given', () => {
    expect(failure('soap12', answer(503, 'text/plain', 'x', '7')).retryAfterMs).toBe(7000);
    expect(failure('soap12', answer(503, 'text/plain', 'x')).retryAfterMs).toBeNull();
  });
});

describe('Retry-After and backoff', () => {
  it('reads seconds and HTTP dates, and ignores what it cannot read', () => {
    const now = Date.parse('2026-11-24T10:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Tue, 24 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 24 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
    expect(parseRetryAfter('2026-11-24T10:00:30Z', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
    // A day at most: a service asking for a year is capped, never waited out.
    expect(parseRetryAfter('99999999', now)).toBe(86_400_000);
  });

  it('honours Retry-After up to the cap, else backs off exponentially with full jitter', () => {
    const policy = { backoffMs: 100, maxBackoffMs: 5000, attempts: 10 };
    const asked = new UnavailableError('X', 503, 2000);
    expect(backoffDelay(policy, 1, asked)).toBe(2000);
    expect(backoffDelay(policy, 1, new UnavailableError('X', 503, 60_000))).toBe(5000);
    const plain = new UnavailableError('X', 502, null);
    // Full jitter: anywhere between a floor and the ceiling of this attempt, which doubles up to the cap.
    expect(backoffDelay(policy, 1, plain, () => 1)).toBe(100);
    expect(backoffDelay(policy, 3, plain, () => 1)).toBe(400);
    expect(backoffDelay(policy, 20, plain, () => 1)).toBe(5000);
    expect(backoffDelay(policy, 3, plain, () => 0)).toBe(25);
    const spread = new Set(Array.from({ length: 50 }, (_, i) => backoffDelay(policy, 5, plain, () => i / 50)));
    expect(spread.size).toBeGreaterThan(40);
  });
});

describe('the retry budget', () => {
  const policy = { backoffMs: 10, maxBackoffMs: 1000, attempts: 100 };

  it('announces each wait and gives up once the service has failed for the budget in a row', async () => {
    let clock = 0;
    const waits: RetryWait[] = [];
    const budget = new RetryBudget(policy, { unavailableMs: 1000, now: () => clock, random: () => 1, onWait: (w) => waits.push(w) });
    const e = new UnavailableError('AccountList2', 503, 400);
    await budget.pause(e, 1);
    expect(waits[0]).toMatchObject({ until: 400, cause: 'unavailable', httpStatus: 503, attempt: 1 });
    clock = 400;
    await budget.pause(e, 2);
    clock = 800;
    // 800 + 400 is past 0 + 1000: not begun.
    const out = await budget.pause(e, 3).catch((x: unknown) => x);
    expect(out).toBeInstanceOf(RetriesExhausted);
    expect((out as RetriesExhausted).last).toBe(e);
    expect((out as RetriesExhausted).message).toMatch(/HTTP 503.*kept failing for 800 ms/);
    // A good answer starts the count again.
    budget.succeeded();
    await budget.pause(e, 1);
    expect(waits).toHaveLength(3);
  });

  it('never waits past the deadline', async () => {
    const budget = new RetryBudget(policy, { unavailableMs: 60_000, deadline: 300, now: () => 0 });
    const out = await budget.pause(new UnavailableError('X', 503, 500), 1).catch((x: unknown) => x);
    expect(out).toBeInstanceOf(RetriesExhausted);
    expect((out as RetriesExhausted).reason).toBe('deadline');
  });

  it('a cancel ends a wait at once with CancelledError', async () => {
    const abort = new AbortController();
    // A wait of five minutes (the service asks for it), cancelled once it has begun: only the cancel can end it in time.
    const long = { backoffMs: 10, maxBackoffMs: 600_000, attempts: 100 };
    const budget = new RetryBudget(long, {
      unavailableMs: 3_600_000,
      signal: abort.signal,
      onWait: () => queueMicrotask(() => abort.abort()),
    });
    const waiting = budget.pause(new UnavailableError('X', 503, 300_000), 1).catch((x: unknown) => x);
    expect(await settles('the cancelled wait to end', waiting)).toBeInstanceOf(CancelledError);
    await expect(cancellableSleep(10, abort.signal)).rejects.toBeInstanceOf(CancelledError);
  });

  it('withRetry tries a transient failure again, and throws a verdict at once', async () => {
    const budget = new RetryBudget({ backoffMs: 1, maxBackoffMs: 2, attempts: 5 }, { unavailableMs: 10_000 });
    let calls = 0;
    expect(
      await withRetry(async () => {
        if (++calls < 3) throw new UnavailableError('X', 502, null);
        return 'ok';
      }, budget),
    ).toBe('ok');
    expect(calls).toBe(3);
    calls = 0;
    const verdict = new FaultError('X', { faultCode: 'Client', message: 'no', httpStatus: 500 } as never);
    await expect(
      withRetry(async () => {
        calls++;
        throw verdict;
      }, budget),
    ).rejects.toBe(verdict);
    expect(calls).toBe(1);
    // Out of tries: the last failure itself, still transient.
    calls = 0;
    const last = await withRetry(async () => {
      calls++;
      throw new UnavailableError('X', 504, null);
    }, budget).catch((x: unknown) => x);
    expect(calls).toBe(5);
    expect(last).toBeInstanceOf(UnavailableError);
  });
});
