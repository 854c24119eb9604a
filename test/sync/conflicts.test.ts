/**
 * Field-level merge of edits queued offline, against the real service changed meanwhile by "another
 * device": fields the user did not change take the service's current values, the same field changed
 * on both sides is a conflict (the service keeps its value until the user chooses), and the user's
 * choice is then carried out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WRITE_KINDS, merge } from '../../src-main/core/write-kinds';
import type { AppError } from '../../src-shared/app-api';
import { newUser, type UserSession } from '../support/client';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const fields = { name: 'Wallet', description: 'cash', type: 1, isActive: true, isHidden: false, locked: false, ord: 1 };

/** A user with one synced account; returns its id and a function editing it "on another device". */
async function withAccount(s: UserSession) {
  await s.core.addAccount({ ...fields, currency: 203 });
  expect((await s.core.sync()).error).toBeNull();
  const id = (await s.core.listAccounts({})).accounts[0]!.id;
  const elsewhere = (change: Partial<typeof fields>) => {
    const v = { ...fields, ...change };
    return s.truth.call('EditAccount', {
      Id_Account: id,
      Name: v.name,
      Description: v.description,
      Type: v.type,
      IsActive: v.isActive,
      IsHidden: v.isHidden,
      Locked: v.locked,
      Ord: v.ord,
    });
  };
  return { id, elsewhere };
}

describe('field-level merge (unit)', () => {
  it('takes theirs for untouched fields, mine for changed ones, and reports a real conflict', () => {
    const base = { name: 'A', description: 'x', type: 1, isActive: true, isHidden: false, locked: false, ord: 1 };
    const mine = { ...base, name: 'B', ord: 2, isHidden: true };
    const theirs = { ...base, description: 'y', ord: 3, isHidden: true };
    expect(merge(WRITE_KINDS.editAccount.edit!.fields, base, mine, theirs)).toEqual({
      values: { ...base, name: 'B', description: 'y', ord: 2, isHidden: true },
      changed: ['name', 'isHidden', 'ord'],
      conflicts: [{ field: 'ord', base: 1, mine: 2, theirs: 3 }],
    });
  });
});

describe('edits merged with the service', () => {
  it('a field changed elsewhere is not overwritten with a stale value', async () => {
    const s = await newUser(service);
    try {
      const { id, elsewhere } = await withAccount(s);
      await s.core.editAccount({ id, ...fields, name: 'My wallet' });
      await elsewhere({ description: 'changed on the phone', ord: 9 });
      const summary = await s.core.sync();
      expect(summary).toMatchObject({ pushed: 1, conflicts: 0 });
      const [a] = await s.truth.call('AccountListWithAmount2', {});
      expect(a).toMatchObject({ Name: 'My wallet', Description: 'changed on the phone', Ord: 9 });
    } finally {
      await s.done();
    }
  });

  it('the same field changed on both sides is a conflict shown to the user; "mine" then wins', async () => {
    const s = await newUser(service);
    try {
      const { id, elsewhere } = await withAccount(s);
      await s.core.editAccount({ id, ...fields, name: 'Mine', description: 'also mine' });
      await elsewhere({ name: 'Theirs' });
      const summary = await s.core.sync();
      expect(summary).toMatchObject({ pushed: 0, conflicts: 1 });
      const [entry] = await s.core.listOutbox();
      expect(entry).toMatchObject({ status: 'conflict', conflicts: [{ field: 'name', base: 'Wallet', mine: 'Mine', theirs: 'Theirs' }] });
      expect(entry!.message).toMatch(/changed name meanwhile/);
      // Nothing was overwritten in either direction.
      expect((await s.truth.call('AccountListWithAmount2', {}))[0]).toMatchObject({ Name: 'Theirs', Description: 'cash' });
      // The view shows the user's pending values meanwhile.
      expect((await s.core.listAccounts({})).accounts[0]).toMatchObject({ name: 'Mine', pending: true });
      // A conflicting entry is not sent again until resolved.
      expect(await s.core.sync()).toMatchObject({ pushed: 0, conflicts: 0 });

      const bad = await s.core.resolveConflict({ id: entry!.id, choices: {} }).catch((e: AppError) => e);
      expect(bad).toMatchObject({ kind: 'invalid-input', field: 'choices' });
      const unknownField = await s.core.resolveConflict({ id: entry!.id, choices: { ord: 'mine' } }).catch((e: AppError) => e);
      expect(unknownField).toMatchObject({ kind: 'invalid-input' });

      await s.core.resolveConflict({ id: entry!.id, choices: { name: 'mine' } });
      expect((await s.core.listOutbox())[0]!.status).toBe('pending');
      expect(await s.core.sync()).toMatchObject({ pushed: 1, conflicts: 0 });
      expect((await s.truth.call('AccountListWithAmount2', {}))[0]).toMatchObject({ Name: 'Mine', Description: 'also mine' });
    } finally {
      await s.done();
    }
  });

  it('"theirs" keeps the service value and still sends the other changed fields', async () => {
    const s = await newUser(service);
    try {
      const { id, elsewhere } = await withAccount(s);
      await s.core.editAccount({ id, ...fields, name: 'Mine', isHidden: true });
      await elsewhere({ name: 'Theirs' });
      await s.core.sync();
      const [entry] = await s.core.listOutbox();
      await s.core.resolveConflict({ id: entry!.id, choices: { name: 'theirs' } });
      expect(await s.core.sync()).toMatchObject({ pushed: 1 });
      expect((await s.truth.call('AccountListWithAmount2', {}))[0]).toMatchObject({ Name: 'Theirs', IsHidden: true });
      expect(await s.core.listOutbox()).toEqual([]);
    } finally {
      await s.done();
    }
  });

  it('the same change made on both sides is no conflict', async () => {
    const s = await newUser(service);
    try {
      const { id, elsewhere } = await withAccount(s);
      await s.core.editAccount({ id, ...fields, name: 'Same' });
      await elsewhere({ name: 'Same' });
      expect(await s.core.sync()).toMatchObject({ pushed: 1, conflicts: 0 });
      expect(await s.core.listOutbox()).toEqual([]);
    } finally {
      await s.done();
    }
  });

  it('a second edit of the same record waits for the first one; a conflict in the first blocks it', async () => {
    const s = await newUser(service);
    try {
      const { id, elsewhere } = await withAccount(s);
      await s.core.editAccount({ id, ...fields, name: 'First' });
      await s.core.editAccount({ id, ...fields, name: 'First', description: 'second edit' });
      await elsewhere({ name: 'Elsewhere' });
      await s.core.sync();
      expect((await s.core.listOutbox()).map((e) => e.status)).toEqual(['conflict', 'blocked']);
      const [first] = await s.core.listOutbox();
      await s.core.resolveConflict({ id: first!.id, choices: { name: 'theirs' } });
      expect(await s.core.sync()).toMatchObject({ pushed: 2, conflicts: 0 });
      // The second edit changed only the description: the name stays the service's.
      expect((await s.truth.call('AccountListWithAmount2', {}))[0]).toMatchObject({ Name: 'Elsewhere', Description: 'second edit' });
    } finally {
      await s.done();
    }
  });

  it('refuelings and category names merge the same way', async () => {
    const s = await newUser(service);
    try {
      await s.core.saveCar({ carId: 4, name: 'Van' });
      const refuel = {
        carId: 4,
        dateOfPurchase: '2026-04-01T08:00',
        tachometer: 5000,
        liter: '40',
        price: '1600',
        currency: 203,
        rate: '1',
        description: 'Shell',
      };
      await s.core.addRefueling(refuel);
      await s.core.addCategory({ name: 'Fuel', parentId: 0 });
      expect((await s.core.sync()).error).toBeNull();
      const [r] = await s.core.listRefuelings({ carId: 4 });
      const categoryId = (await s.core.getCategoryTree()).all[0]!.id;

      await s.core.editRefueling({ ...refuel, id: r!.id, price: '1650.5' });
      await s.core.renameCategory({ id: categoryId, name: 'Fuel & oil' });
      // Elsewhere: the refueling's description and the category's name.
      await s.truth.call('EditCarFuel', {
        CarId: 4,
        Id_CarFuel: r!.id,
        Liter: 40,
        Price: 1600,
        Tachometer: 5000,
        DateOfPurchase: '2026-04-01T08:00:00',
        Currency: 203,
        Description: 'OMV',
        Rate: 1,
      });
      await s.truth.call('EditCategory', { Id_Category: categoryId, Name: 'Petrol' });

      const summary = await s.core.sync();
      expect(summary).toMatchObject({ pushed: 1, conflicts: 1 });
      const [fuel] = await s.truth.call('CarFuelList', { CarId: 4 });
      expect(fuel).toMatchObject({ Price: 1650.5, Description: 'OMV' });
      const [entry] = await s.core.listOutbox();
      expect(entry).toMatchObject({
        kind: 'renameCategory',
        status: 'conflict',
        conflicts: [{ field: 'name', base: 'Fuel', mine: 'Fuel & oil', theirs: 'Petrol' }],
      });
    } finally {
      await s.done();
    }
  });
});
