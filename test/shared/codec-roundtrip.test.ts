/** Every operation x every binding x request and response, generated from the catalog. */
import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES, OPERATIONS } from '../../src-shared/catalog';
import {
  BINDINGS,
  FAULT_SUBCODE_HEADER,
  ServiceFault,
  faultHeaders,
  buildFault,
  buildRequest,
  buildResponse,
  detectBinding,
  parseRequest,
  parseResponse,
} from '../../src-shared/wire';
import { caught } from '../support/caught';
import { SAMPLE_CREDENTIALS, sampleParams, sampleResult } from '../support/samples';
import { toIncoming } from '../support/wire';

const NS = 'http://bookkeeping.example/api/';
const opts = { namespace: NS, timeZone: 'Europe/Prague' };

describe.each(BINDINGS)('binding %s', (binding) => {
  it.each(OPERATION_NAMES)('%s request round-trips', (name) => {
    for (const seed of [0, 1, 2, 3, 5]) {
      const call = { operation: name, credentials: SAMPLE_CREDENTIALS, params: sampleParams(name, seed) };
      const wire = buildRequest(binding, call, NS);
      const incoming = toIncoming(wire);
      expect(detectBinding(incoming)).toBe(binding);
      expect(parseRequest(binding, incoming, opts)).toEqual(call);
    }
  });

  it.each(OPERATION_NAMES)('%s response round-trips', (name) => {
    for (const [seed, size] of [
      [0, 3],
      [1, 1],
      [4, 0],
      [7, 2],
    ] as const) {
      const result = sampleResult(name, seed, size);
      const wire = buildResponse(binding, name, result, NS);
      expect(wire.status).toBe(200);
      expect(parseResponse(name, wire, opts)).toEqual(result);
    }
  });

  it.each(['Client', 'Server'] as const)('a %s fault round-trips', (code) => {
    const wire = buildFault(binding, { code, message: 'Account 7 is locked & <inactive>.' });
    expect(wire.status).toBe(500);
    const read = () => parseResponse('AccountList2', wire, opts);
    expect(read).toThrow(ServiceFault);
    try {
      read();
    } catch (e) {
      const fault = e as ServiceFault;
      expect(fault.message).toBe('Account 7 is locked & <inactive>.');
      expect(fault.httpStatus).toBe(500);
      // The plain-text answer of GET/POST carries no code; a 5xx reads as the server's.
      expect(fault.faultCode).toBe(binding === 'httpGet' || binding === 'httpPost' ? 'Server' : code);
      expect(fault.subcode).toBeNull();
    }
  });

  it('a fault marked with a subcode round-trips with it (SOAP 1.1, whose detail stays empty, without), its code, words and status unchanged', () => {
    const wire = buildFault(binding, { code: 'Client', message: 'Invalid credentials', subcode: 'InvalidCredentials' }, NS);
    expect(wire.status).toBe(500);
    // The GET and POST bindings carry it in a header, which the reader is handed as the transports do.
    const answer = { ...wire, faultSubcode: faultHeaders(wire)[FAULT_SUBCODE_HEADER] ?? null };
    const fault = caught(() => parseResponse('AccountList2', answer, opts), ServiceFault);
    expect([fault.message, fault.httpStatus, fault.subcode]).toEqual([
      'Invalid credentials',
      500,
      binding === 'soap11' ? null : 'InvalidCredentials',
    ]);
    expect(fault.faultCode).toBe(binding === 'httpGet' || binding === 'httpPost' ? 'Server' : 'Client');
    expect(buildFault(binding, { code: 'Client', message: 'Invalid credentials' }, NS).body).toBe(
      wire.body.replace(/<detail>.*<\/detail>/, '<detail />').replace(/<soap:Subcode>.*<\/soap:Subcode>/, ''),
    );
  });
});

describe('catalog coverage', () => {
  it('has the 15 operations of the interface', () => {
    expect(OPERATION_NAMES).toHaveLength(15);
    expect(Object.values(OPERATIONS).every((o) => o.name in OPERATIONS)).toBe(true);
  });
});
