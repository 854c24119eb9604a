/**
 * A whole day with the app, in Czech, through the browser shell against the real service: connect, sync
 * the demo data, read balances, lose the service, record two refuelings, a transfer and a category while
 * offline, see them pending with balances already moved, get the service back, sync, and see everything
 * confirmed with the service's ids and balances.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserFor } from '../support/browser';
import { text, units } from '../support/decimal-oracle';
import { type AppPage, connect, go, money, openApp, poll, realErrors, startStack, syncNow, textOf, type Stack } from './stack';

/** A Chromium-family browser: without one, this file is skipped (named at the end of the run), or fails in CI. */
const found = browserFor(import.meta.url);

let stack: Stack;
let app: AppPage;

const plus = (a: number, b: string) => text(units(String(a)) + units(b));

beforeAll(async () => {
  stack = await startStack();
  app = await openApp(stack, 'cs-CZ');
});
afterAll(async () => {
  await app?.context.close();
  await stack?.close();
});

describe.skipIf(!found)('a day of use', () => {
  it('connects, syncs, works offline and confirms everything after the service is back', async () => {
    const { page } = app;
    const header = page.locator('header');

    // --- First run, in the system's language: test the connection, then connect.
    await poll(() => textOf(page.locator('main h1'))).toBe('Vítejte');
    await page.locator('input[name=baseUrl]').fill(stack.service.url);
    await page.getByTestId('test-connection').click();
    await poll(() => textOf(page.getByTestId('report-namespace'))).toBe(stack.service.namespace);
    await poll(() => textOf(page.getByTestId('report-operations'))).toBe('Nalezeno 15 z 15');
    await connect(page, stack.service);
    await page.waitForURL(/#\/accounts$/);
    await poll(() => textOf(page.getByTestId('sync-summary'))).toContain('Synchronizace dokončena');
    await poll(() => textOf(header.getByTestId('connection-state'))).toBe('Připojeno');

    // --- Balances as the service has them, totals per currency.
    const before = await stack.soap.listAccounts();
    const visible = before.filter((a) => a.IsActive && !a.IsHidden);
    for (const a of visible) {
      await poll(() => textOf(page.locator(`tr[data-account-id="${a.Id}"] [data-testid=balance]`))).toBe(money(a.Amount, a.Currency, 'cs'));
    }
    const czkTotal = visible.filter((a) => a.Currency === 203).reduce((t, a) => plus(a.Amount, t), '0');
    expect(await textOf(page.locator('[data-testid=totals] [data-currency=CZK] .stat-value'))).toBe(money(czkTotal, 203, 'cs'));
    const bank = before.find((a) => a.Name === 'Běžný účet')!;
    const savings = before.find((a) => a.Name === 'Spořicí účet')!;

    // --- Name car 1 and bring in its refuelings while the service is still there.
    await go(page, '/cars');
    await page.getByTestId('add-car').click();
    await page.locator('dialog input[name=carId]').fill('1');
    await page.locator('dialog input[name=carName]').fill('Octavia');
    await page.locator('dialog input[name=carName]').press('Enter');
    await poll(() => textOf(page.locator('[data-car-id="1"]'))).toContain('Octavia');
    await syncNow(page);
    const serviceFuel = await stack.soap.call('CarFuelList', { CarId: 1 });
    const lastOdometer = Math.max(...serviceFuel.map((r) => r.Tachometer));
    await go(page, '/cars/1');
    await poll(() => page.locator('[data-testid=refuelings-table] tbody tr').count()).toBe(serviceFuel.length);

    // --- The service goes away: Sync says so and the header shows the app is offline.
    await stack.service.stop();
    const failed = await syncNow(page);
    expect(failed).toContain('služba není dostupná');
    await poll(() => textOf(header.getByTestId('connection-state'))).toBe('Nedostupné');

    // --- Two refuelings at the pump; the odometer check catches a reading below the last one.
    await go(page, '/pump');
    await poll(() => page.locator('select[name=carId]').inputValue()).toBe('1');
    await page.locator('input[name=tachometer]').fill(String(lastOdometer - 10));
    await poll(() => textOf(page.locator('.field-warning'))).toContain('není vyšší');
    await page.locator('input[name=tachometer]').fill(String(lastOdometer + 420));
    await poll(() => page.locator('.field-warning').count()).toBe(0);
    await page.locator('input[name=liter]').fill('41,27');
    await page.locator('input[name=price]').fill('1 650,80');
    await poll(() => textOf(page.getByTestId('price-per-liter'))).toContain('40,00 Kč/l');
    await page.getByTestId('save-refueling').click();
    await poll(() => textOf(page.locator('.toast').last())).toContain('Tankování auta Octavia čeká na odeslání');
    await poll(() => page.locator('input[name=tachometer]').inputValue()).toBe('');
    await page.locator('input[name=tachometer]').fill(String(lastOdometer + 980));
    await page.locator('input[name=liter]').fill('38,5');
    await page.locator('input[name=price]').fill('1 501,50');
    await page.locator('input[name=price]').press('Enter');
    await poll(() => page.locator('input[name=tachometer]').inputValue()).toBe('');

    // --- A transfer with a category from the picker.
    await go(page, '/transfer');
    await page.locator('select[name=sourceId]').selectOption(String(bank.Id));
    await page.locator('select[name=targetId]').selectOption(String(savings.Id));
    await page.locator('input[name=amount]').fill('1 234,50');
    await page.locator('input[name=categoryId]').fill('Převody');
    await page.locator('input[name=categoryId]').press('Enter');
    await poll(() => page.locator('input[name=categoryId]').inputValue()).toBe('Převody');
    await page.locator('input[name=description]').fill('Na dovolenou');
    await page.getByTestId('queue-transfer').click();
    await poll(() => textOf(page.locator('.toast').last())).toContain('Převod z účtu Běžný účet čeká na odeslání');
    await poll(() => page.getByTestId('transfer-problems').count()).toBe(0);

    // --- A new category.
    await go(page, '/categories');
    await page.getByTestId('add-top-category').click();
    await page.getByLabel('Název nové kategorie').fill('Dárky');
    await page.getByLabel('Název nové kategorie').press('Enter');
    const gifts = page.locator('[data-testid=category-tree] > li').filter({ hasText: 'Dárky' });
    await poll(() => textOf(gifts.locator('.badge').first())).toBe('Nový');

    // --- Everything pending, balances already moved, the service's balance beside them.
    await poll(() => textOf(header.getByTestId('queued-count'))).toContain('4');
    await go(page, '/outbox');
    await poll(() => page.locator('[data-outbox-id]').count()).toBe(4);
    await poll(() => page.locator('[data-outbox-id][data-status=pending]').count()).toBe(4);
    await go(page, '/accounts');
    const bankRow = page.locator(`tr[data-account-id="${bank.Id}"]`);
    await poll(() => bankRow.getAttribute('class')).toMatch(/is-pending/);
    const bankBalance = bankRow.locator('[data-testid=balance]');
    await poll(() => textOf(bankBalance)).toBe(
      `${money(plus(bank.Amount, '-1234.5'), 203, 'cs')} Potvrzeno: ${money(bank.Amount, 203, 'cs')}`,
    );
    await poll(() => textOf(page.locator(`tr[data-account-id="${savings.Id}"] [data-testid=balance]`))).toBe(
      `${money(plus(savings.Amount, '1234.5'), 203, 'cs')} Potvrzeno: ${money(savings.Amount, 203, 'cs')}`,
    );
    await go(page, `/accounts/${bank.Id}`);
    const pendingTx = page.locator('[data-testid=transactions-table] tbody tr.is-pending');
    await poll(() => pendingTx.count()).toBe(1);
    await poll(() => textOf(pendingTx)).toContain('Na dovolenou');
    await poll(() => textOf(pendingTx)).toContain('Převody');
    await go(page, '/cars/1');
    await poll(() => page.locator('[data-testid=refuelings-table] tbody tr.is-pending').count()).toBe(2);

    // --- The service is back: one Sync sends the four writes and confirms them.
    await stack.service.start();
    const done = await syncNow(page);
    expect(done).toContain('Odeslány 4 změny');
    await poll(() => textOf(header.getByTestId('connection-state'))).toBe('Připojeno');
    await poll(() => header.getByTestId('queued-count').count()).toBe(0);
    await poll(() => page.locator('[data-testid=refuelings-table] tbody tr.is-pending').count()).toBe(0);
    const fuelAfter = await stack.soap.call('CarFuelList', { CarId: 1 });
    const newFuel = fuelAfter
      .filter((r) => r.Tachometer > lastOdometer)
      .map((r) => String(r.Id))
      .sort();
    expect(newFuel).toHaveLength(2);
    const shownIds = await page
      .locator('[data-testid=refuelings-table] tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-refueling-id')));
    for (const id of newFuel) expect(shownIds).toContain(id);

    await go(page, '/accounts');
    const after = await stack.soap.listAccounts();
    expect(after.find((a) => a.Id === bank.Id)!.Amount).toBe(Number(plus(bank.Amount, '-1234.5')));
    for (const a of after.filter((x) => x.IsActive && !x.IsHidden)) {
      const row = page.locator(`tr[data-account-id="${a.Id}"]`);
      await poll(() => row.getAttribute('class')).not.toMatch(/is-pending/);
      await poll(() => textOf(row.locator('[data-testid=balance]'))).toBe(money(a.Amount, a.Currency, 'cs'));
    }

    await go(page, `/accounts/${bank.Id}`);
    const serviceTx = (await stack.soap.listTransactions(bank.Id)).items.find((t) => t.Description === 'Na dovolenou')!;
    const confirmed = page.locator(`[data-testid=transactions-table] tbody tr[data-transaction-id="${serviceTx.Id}"]`);
    await poll(() => textOf(confirmed)).toContain('Na dovolenou');
    await poll(() => confirmed.getAttribute('class')).not.toMatch(/is-pending/);
    expect(text(-units(String(serviceTx.Amount)))).toBe('1234.5');

    await go(page, '/categories');
    const tree = await stack.soap.call('CategoryTree', {});
    const serviceGifts = tree.AllCategories.find((c) => c?.Name === 'Dárky')!;
    await poll(() => textOf(page.locator(`[data-category-id="${serviceGifts.Id}"]`))).toContain('Dárky');
    await poll(() => page.locator(`[data-category-id="${serviceGifts.Id}"] .badge`).count()).toBe(0);

    await go(page, '/outbox');
    await poll(() => textOf(page.locator('main'))).toContain('Vše je synchronizováno');
    expect(realErrors(app.errors)).toEqual([]);
  }, 90_000);
});
