/**
 * Every numeric field takes the service's full range: an account whose Ord (a long on the service) is
 * past 32 bits is read, edited and sent back unchanged in value; a tachometer past 32 bits travels
 * too. Past what a double holds exactly (2^53) the app refuses, never
 * rounds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount } from '../../src-service';
import { newUser, TEST_SYNC_TUNING, type UserSession } from '../support/client';
import { startTestService, type TestService } from '../support/service';

const PAST_32_BITS = 5_000_000_000;
let service: TestService;
let s: UserSession;
beforeAll(async () => {
  service = await startTestService();
  s = await newUser(service, { sync: TEST_SYNC_TUNING });
});
afterAll(async () => {
  await s.done();
  await service.close();
});

describe('the full range of the service’s longs', () => {
  it('an Ord past 32 bits is read, edited and written back exactly; past 2^53 the app refuses', async () => {
    const id = addAccount(service.dataFile, s.login, { name: 'Big ord', currency: 203, ord: PAST_32_BITS, type: 2 });
    expect((await s.core.sync()).error).toBeNull();
    const account = (await s.core.listAccounts({ includeHidden: true, includeInactive: true })).accounts.find((a) => a.id === id)!;
    expect(account).toMatchObject({ ord: PAST_32_BITS, type: 2 });

    await s.core.editAccount({
      id,
      name: 'Big ord, renamed',
      description: '',
      type: account.type,
      isActive: true,
      isHidden: false,
      locked: false,
      ord: Number.MAX_SAFE_INTEGER,
    });
    expect(await s.core.sync()).toMatchObject({ error: null, pushed: 1, refused: 0 });
    const onService = (await s.truth.call('AccountListWithAmount2', {})).find((a) => a.Id === id)!;
    expect(onService).toMatchObject({ Name: 'Big ord, renamed', Ord: Number.MAX_SAFE_INTEGER, Type: 2 });

    await expect(
      s.core.editAccount({ id, name: 'x', description: '', type: 1, isActive: true, isHidden: false, locked: false, ord: 2 ** 53 }),
    ).rejects.toMatchObject({ kind: 'invalid-input', field: 'ord' });
  });

  it('a tachometer past 32 bits is queued and sent exactly', async () => {
    await s.core.saveCar({ carId: 1, name: 'Long haul' });
    const written = await s.core.addRefueling({
      carId: 1,
      dateOfPurchase: '2026-11-20T08:00',
      tachometer: PAST_32_BITS,
      liter: '41.5',
      price: '1650.8',
      currency: 203,
      rate: '1',
      description: 'far',
    });
    expect(written.id).toBeLessThan(0);
    expect(await s.core.sync()).toMatchObject({ error: null, refused: 0 });
    const fuel = await s.truth.call('CarFuelList', { CarId: 1 });
    expect(fuel.find((f) => f.Description === 'far')).toMatchObject({ Tachometer: PAST_32_BITS });
  });
});
