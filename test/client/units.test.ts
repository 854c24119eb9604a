/**
 * Small pure pieces of the client core: addresses, price per liter, dependency analysis, and the
 * XML-free parts of the secret stores (the command line's argument reader: test/shared/cli-kit.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { pricePerLiter } from '../../src-main/core/app/read-views';
import { analyzeDependencies, effectiveStatuses, type AnyEntry } from '../../src-main/core/outbox';
import { addressWarnings, normalizeBaseUrl } from '../../src-main/core/soap-client';
import { isInsecureRemote, isLoopbackHostname, parseServiceAddress } from '../../src-shared/service-address';

describe('service addresses', () => {
  it('normalizes what users paste', () => {
    expect(normalizeBaseUrl(' https://example.com/ ')).toBe('https://example.com');
    expect(normalizeBaseUrl('http://h:8080/app/API/APIservice.asmx?WSDL')).toBe('http://h:8080/app');
    expect(normalizeBaseUrl('http://h/api/apiservice.asmx/')).toBe('http://h');
    // Refused by code, about the field: the screens say the same problem while the user types (parseServiceAddress).
    expect(() => normalizeBaseUrl('example.com')).toThrow(expect.objectContaining({ code: 'addressNotUrl', field: 'baseUrl' }));
    expect(() => normalizeBaseUrl('ftp://example.com')).toThrow(expect.objectContaining({ code: 'addressNotHttp', field: 'baseUrl' }));
    expect(() => normalizeBaseUrl('https://u:p@example.com')).toThrow(
      expect.objectContaining({ code: 'addressWithCredentials', field: 'baseUrl' }),
    );
    expect(parseServiceAddress('https://x.example').problem).toBeNull();
    expect(parseServiceAddress(' x.example').problem).toBe('addressNotUrl');
    expect(parseServiceAddress('ftp://x.example').problem).toBe('addressNotHttp');
    expect(parseServiceAddress('https://me@x.example').problem).toBe('addressWithCredentials');
  });

  it('warns about plain http to another machine only', () => {
    expect(addressWarnings('http://127.0.0.1:8080')).toEqual([]);
    expect(addressWarnings('http://localhost')).toEqual([]);
    expect(addressWarnings('http://[::1]:80')).toEqual([]);
    expect(addressWarnings('https://example.com')).toEqual([]);
    expect(addressWarnings('http://example.com')).toEqual([{ code: 'insecureAddress', params: {} }]);
    expect(addressWarnings('http://192.168.1.5:8080')).toEqual([{ code: 'insecureAddress', params: {} }]);
    expect(isLoopbackHostname('127.10.0.1')).toBe(true);
    expect(isLoopbackHostname('192.168.1.1')).toBe(false);
    // What the screens warn of while the user types: the same rule, and nothing for what is no address.
    expect(isInsecureRemote('http://money.example.com')).toBe(true);
    expect(isInsecureRemote('http://[::1]:8080')).toBe(false);
    expect(isInsecureRemote('https://money.example.com')).toBe(false);
    expect(isInsecureRemote('money.example.com')).toBe(false);
  });
});

describe('price per liter', () => {
  it('divides exactly and rounds half away from zero to 3 decimals', () => {
    expect(pricePerLiter('10', '3')).toBe('3.333');
    expect(pricePerLiter('20', '3')).toBe('6.667');
    expect(pricePerLiter('1303.95', '32.55')).toBe('40.06');
    expect(pricePerLiter('0.0005', '1')).toBe('0.001');
    expect(pricePerLiter('-0.0005', '1')).toBe('-0.001');
    expect(pricePerLiter('0', '5')).toBe('0');
    expect(pricePerLiter('5', '0')).toBeNull();
  });
});

const entry = (
  id: number,
  kind: AnyEntry['kind'],
  input: object,
  createdIds: number[] = [],
  status: AnyEntry['status'] = 'pending',
): AnyEntry =>
  ({
    id,
    kind,
    input,
    base: null,
    createdIds,
    status,
    message: null,
    conflicts: [],
    attempts: 0,
    createdAt: '',
    sentAt: null,
    probe: null,
  }) as unknown as AnyEntry;

describe('dependencies between queued writes', () => {
  it('follows temporary ids and edits of one record, and blocks behind refusals', () => {
    const entries = [
      entry(1, 'addAccount', {}, [-1], 'refused'),
      entry(2, 'transfer', { sourceId: 5, targetId: -1, categoryId: 0 }, [-2, -3]),
      entry(3, 'editAccount', { id: 5 }),
      entry(4, 'editAccount', { id: 5 }),
      entry(5, 'addCategory', { parentId: 0 }, [-4]),
      entry(6, 'addCategory', { parentId: -4 }, [-5]),
      entry(7, 'transfer', { sourceId: 5, targetId: 6, categoryId: -5 }, [-6, -7]),
      entry(8, 'renameCategory', { id: -99 }),
    ];
    const deps = analyzeDependencies(entries);
    expect(deps.get(2)!.waitsFor).toEqual([1]);
    expect(deps.get(4)!.waitsFor).toEqual([3]);
    expect(deps.get(7)!.waitsFor).toEqual([6]);
    expect(deps.get(6)!.waitsFor).toEqual([5]);
    expect(deps.get(5)!.dependents).toEqual([6]);
    expect(deps.get(8)!.missing).toEqual([{ field: 'id', kind: 'category', id: -99 }]);
    const statuses = effectiveStatuses(entries, deps);
    expect([...statuses.values()].map((s) => s.status)).toEqual([
      'refused',
      'blocked',
      'pending',
      'pending',
      'pending',
      'pending',
      'pending',
      'blocked',
    ]);
  });

  it('blocks behind a write whose outcome only the user can decide, not behind one the next sync checks', () => {
    const undecidable = {
      ...entry(1, 'addRefueling', {}, [-1], 'undecidable'),
      message: 'Whether this refueling reached the service cannot be told...',
    } as AnyEntry;
    // Unknown with a note (a restore brought it back): the next sync checks it, whatever its message says.
    const revived = { ...entry(3, 'addRefueling', {}, [-2], 'unknown'), message: 'Restored from a backup: ...' } as AnyEntry;
    const entries = [undecidable, entry(2, 'editRefueling', { id: -1 }), revived, entry(4, 'editRefueling', { id: -2 })];
    const statuses = effectiveStatuses(entries);
    expect([...statuses.values()].map((s) => s.status)).toEqual(['undecidable', 'blocked', 'unknown', 'pending']);
    expect(statuses.get(2)!.message).toMatch(/#1 .*outcome/);
  });
});
