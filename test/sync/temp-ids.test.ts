/**
 * Records created offline get temporary ids that later writes may use; when the create succeeds the
 * service's id replaces the temporary one everywhere. A refused create holds back exactly the writes
 * that depend on it, while independent writes go through; fixing it lets the chain through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src-main/core/store';
import { addCategory as adminAddCategory } from '../../src-service';
import { newUser } from '../support/client';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

/** A fresh user with one synced CZK account ("Main"). */
async function setUp() {
  const session = await newUser(service);
  const a = await session.core.addAccount({
    name: 'Main',
    description: '',
    currency: 203,
    type: 2,
    isActive: true,
    isHidden: false,
    locked: false,
    ord: 1,
  });
  expect(a.id).toBeLessThan(0);
  expect((await session.core.sync()).error).toBeNull();
  const mainId = (await session.core.listAccounts({})).accounts[0]!.id;
  expect(mainId).toBeGreaterThan(0);
  return Object.assign(session, { mainId });
}

const account = (name: string, currency = 203) => ({
  name,
  description: '',
  currency,
  type: 1,
  isActive: true,
  isHidden: false,
  locked: false,
  ord: 5,
});

describe('temporary id chains', () => {
  it('new account -> transfer to it -> edit of it: ids replaced everywhere, one record each on the service', async () => {
    const s = await setUp();
    try {
      const created = await s.core.addAccount(account('Holiday'));
      const t = await s.core.transfer({
        sourceId: s.mainId,
        targetId: created.id,
        amount: '250.5',
        paymentDate: '2026-05-01T09:00',
        categoryId: 0,
        description: 'to holiday',
      });
      const { currency: _c, ...fields } = account('Holiday fund');
      void _c;
      await s.core.editAccount({ id: created.id, ...fields, isHidden: true });
      // Shown at once: the new account with the pending transfer in its balance.
      const before = (await s.core.listAccounts({ includeHidden: true })).accounts;
      expect(before.find((a) => a.id === created.id)).toMatchObject({
        name: 'Holiday fund',
        balance: '250.5',
        local: true,
        pending: true,
        isHidden: true,
      });
      expect(before.find((a) => a.id === s.mainId)).toMatchObject({ balance: '-250.5', serverBalance: '0', pending: true });
      const outbox = await s.core.listOutbox();
      expect(outbox.map((e) => [e.kind, e.targetId])).toEqual([
        ['addAccount', created.id],
        ['transfer', t.id],
        ['editAccount', created.id],
      ]);
      expect(outbox[0]!.dependents).toEqual([outbox[1]!.id, outbox[2]!.id]);

      const summary = await s.core.sync();
      expect(summary).toMatchObject({ pushed: 3, refused: 0, error: null });
      expect(await s.core.listOutbox()).toEqual([]);

      const onService = await s.truth.call('AccountListWithAmount2', {});
      const holiday = onService.filter((a) => a.Name.startsWith('Holiday'));
      expect(holiday).toHaveLength(1);
      expect(holiday[0]).toMatchObject({ Name: 'Holiday fund', IsHidden: true, Amount: 250.5 });
      const txs = await s.truth.call('TransactionListLast50_2', { AccountId: holiday[0]!.Id });
      expect(txs.map((x) => [x.Amount, x.Description])).toEqual([[250.5, 'to holiday']]);

      // The temporary id still finds the record, for a screen that kept it.
      const page = await s.core.listTransactions({ accountId: created.id });
      expect(page.items.map((x) => [x.amount, x.pending])).toEqual([['250.5', false]]);
      const store = new Store(s.file);
      try {
        const outboxRepo = store.outbox;
        expect(outboxRepo.resolve(created.id)).toBe(holiday[0]!.Id);
        // The transfer's id is its source side's.
        const sourceSide = (await s.truth.call('TransactionListLast50_2', { AccountId: s.mainId })).find(
          (x) => x.Description === 'to holiday',
        )!;
        expect(outboxRepo.resolve(t.id)).toBe(sourceSide.Id);
      } finally {
        store.close();
      }
      // A later write may still use the temporary id.
      await s.core.transfer({
        sourceId: created.id,
        targetId: s.mainId,
        amount: '0.5',
        paymentDate: '2026-05-02T09:00',
        categoryId: 0,
        description: 'back',
      });
      expect((await s.core.listOutbox())[0]!.input).toMatchObject({ sourceId: holiday[0]!.Id });
    } finally {
      await s.done();
    }
  });

  it('new category -> child -> transfer booked in the child', async () => {
    const s = await setUp();
    try {
      const other = await s.core.addAccount(account('Other'));
      const top = await s.core.addCategory({ name: 'Travel', parentId: 0 });
      const child = await s.core.addCategory({ name: 'Flights', parentId: top.id });
      await s.core.transfer({
        sourceId: s.mainId,
        targetId: other.id,
        amount: '99.99',
        paymentDate: '2026-06-01T12:00',
        categoryId: child.id,
        description: 'ticket',
      });
      await s.core.renameCategory({ id: child.id, name: 'Air travel' });
      const tree = await s.core.getCategoryTree();
      expect(tree.all).toEqual([
        {
          id: top.id,
          name: 'Travel',
          parentId: 0,
          pending: true,
          children: [{ id: child.id, name: 'Air travel', parentId: top.id, pending: true, children: [] }],
        },
      ]);
      const pendingTx = await s.core.listTransactions({ accountId: other.id });
      expect(pendingTx.items[0]).toMatchObject({ amount: '99.99', categoryId: child.id, categoryName: 'Air travel', pending: true });

      expect((await s.core.sync()).pushed).toBe(5);
      const serviceTree = await s.truth.call('CategoryTree', {});
      expect(serviceTree.AllCategories).toHaveLength(1);
      const travel = serviceTree.AllCategories[0]!;
      expect(travel.Name).toBe('Travel');
      expect(travel.ChildCategories!.map((c) => c.Name)).toEqual(['Air travel']);
      const otherId = (await s.core.listAccounts({})).accounts.find((a) => a.name === 'Other')!.id;
      const txs = await s.truth.call('TransactionListLast50_2', { AccountId: otherId });
      expect(txs.map((x) => [x.Amount, x.Id_Category])).toEqual([[99.99, travel.ChildCategories![0]!.Id]]);
      const local = await s.core.listTransactions({ accountId: otherId });
      expect(local.items[0]).toMatchObject({ categoryName: 'Air travel', pending: false });
    } finally {
      await s.done();
    }
  });

  it('a refused create holds back what depends on it; independent writes go through; fixing it lets the chain through', async () => {
    const s = await setUp();
    try {
      // Currency 999 is a code the client cannot judge (codes are opaque); this service refuses it.
      const odd = await s.core.addAccount(account('Odd', 999));
      const second = await s.core.addAccount(account('Odd twin', 999));
      await s.core.transfer({
        sourceId: odd.id,
        targetId: second.id,
        amount: '1',
        paymentDate: '2026-06-01T12:00',
        categoryId: 0,
        description: 'blocked',
      });
      const fine = await s.core.addAccount(account('Fine'));
      await s.core.transfer({
        sourceId: s.mainId,
        targetId: fine.id,
        amount: '3',
        paymentDate: '2026-06-01T12:00',
        categoryId: 0,
        description: 'independent',
      });

      const summary = await s.core.sync();
      expect(summary).toMatchObject({ pushed: 2, refused: 2, error: null });
      const outbox = await s.core.listOutbox();
      expect(outbox.map((e) => [e.kind, e.status])).toEqual([
        ['addAccount', 'refused'],
        ['addAccount', 'refused'],
        ['transfer', 'blocked'],
      ]);
      expect(outbox[0]!.message).toMatch(/Currency 999/);
      expect(outbox[2]!.message).toMatch(/Waits for write #\d+ \(new account\), which the service refused/);
      const status = await s.core.getStatus();
      expect(status.outbox).toMatchObject({ refused: 2, blocked: 1, pending: 0 });
      const names = (await s.truth.call('AccountListWithAmount2', {})).map((a) => a.Name);
      expect(names).toContain('Fine');
      expect(names).not.toContain('Odd');

      // Fix both creates and retry: the chain goes through.
      await s.core.updateOutbox({ id: outbox[0]!.id, input: account('Odd') });
      await s.core.updateOutbox({ id: outbox[1]!.id, input: account('Odd twin') });
      expect((await s.core.listOutbox()).map((e) => e.status)).toEqual(['pending', 'pending', 'pending']);
      expect(await s.core.sync()).toMatchObject({ pushed: 3, refused: 0 });
      const after = await s.truth.call('AccountListWithAmount2', {});
      expect(after.find((a) => a.Name === 'Odd')!.Amount).toBe(-1);
      expect(after.find((a) => a.Name === 'Odd twin')!.Amount).toBe(1);
    } finally {
      await s.done();
    }
  });

  it('a category create refused because the name was taken meanwhile blocks its child and the transfer booked there', async () => {
    const s = await setUp();
    try {
      const other = await s.core.addAccount(account('Other'));
      const top = await s.core.addCategory({ name: 'Pets', parentId: 0 });
      const child = await s.core.addCategory({ name: 'Vet', parentId: top.id });
      await s.core.transfer({
        sourceId: s.mainId,
        targetId: other.id,
        amount: '10',
        paymentDate: '2026-06-01T12:00',
        categoryId: child.id,
        description: 'vet',
      });
      await s.core.addCategory({ name: 'Garden', parentId: 0 });
      // Another device creates "pets" first.
      adminAddCategory(service.dataFile, s.login, 'pets');
      const summary = await s.core.sync();
      expect(summary).toMatchObject({ refused: 1, pushed: 2 });
      const outbox = await s.core.listOutbox();
      expect(outbox.map((e) => [e.kind, e.status])).toEqual([
        ['addCategory', 'refused'],
        ['addCategory', 'blocked'],
        ['transfer', 'blocked'],
      ]);
      const tree = await s.truth.call('CategoryTree', {});
      expect(tree.AllCategories.map((c) => c.Name).sort()).toEqual(['Garden', 'pets']);
      // Discarding the refused create leaves its dependents blocked with a reason, not lost.
      await s.core.discardOutbox({ id: outbox[0]!.id });
      const left = await s.core.listOutbox();
      expect(left.map((e) => e.status)).toEqual(['blocked', 'blocked']);
      expect(left[0]!.message).toMatch(/new category \(parentId\) whose creation was discarded/);
      // Pointing the child at the existing category lets both through.
      const pets = tree.AllCategories.find((c) => c.Name === 'pets')!.Id;
      await s.core.updateOutbox({ id: left[0]!.id, input: { name: 'Vet', parentId: pets } });
      expect((await s.core.listOutbox()).map((e) => e.status)).toEqual(['pending', 'pending']);
      expect(await s.core.sync()).toMatchObject({ pushed: 2, refused: 0 });
      const vet = (await s.truth.call('CategoryTree', {})).AllCategories.find((c) => c.Id === pets)!.ChildCategories![0]!;
      expect(vet.Name).toBe('Vet');
      const otherId = (await s.core.listAccounts({})).accounts.find((a) => a.name === 'Other')!.id;
      expect((await s.truth.call('TransactionListLast50_2', { AccountId: otherId })).map((t) => t.Id_Category)).toEqual([vet.Id]);
    } finally {
      await s.done();
    }
  });
});
