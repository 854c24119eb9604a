/**
 * A conflict settled from the command line: two local copies on one login edit the same account offline
 * (different fields and one same field), the first syncs, the second syncs and meets the conflict;
 * `outbox show` prints base, mine and theirs, `outbox resolve` keeps the side chosen (through the same
 * app API method as the screens' resolver), and after `sync` the service holds the chosen value beside
 * the other copy's untouched fields.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_EXIT } from '../../src-main/cli/exit-codes';
import type { SoapClient } from '../../src-main/core/soap-client';
import type { OutboxEntryDetail } from '../../src-shared/app-api';
import { expectCliFailure, runCliOn } from '../support/cli';
import { soapClient, tempDir } from '../support/client';
import { seedTestUser, startTestService, type TestService } from '../support/service';

let service: TestService;
let truth: SoapClient;
const tmp = tempDir('bookkeeping-cli-conflicts-');
const credentials = { clientKey: 'cli-conflicts', login: `cliconflicts${process.pid}`, password: 'password' };
const env = { BOOKKEEPING_PASSWORD: credentials.password, BOOKKEEPING_CLIENT_KEY: credentials.clientKey };
/** The first copy (a laptop) and the second (a desktop), both of one login. */
const first = (args: string[]) => runCliOn(tmp.file('first.sqlite'), args, { env });
const second = (args: string[]) => runCliOn(tmp.file('second.sqlite'), args, { env });
let accountId: number;

async function ok(run: Promise<Awaited<ReturnType<typeof first>>>) {
  const r = await run;
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  return r;
}

const theService = async () => (await truth.call('AccountListWithAmount2', {})).find((a) => a.Id === accountId)!;

/** Both copies edit the account offline, the first syncs, the second syncs into the conflict: its entry id. */
async function conflictOf(firstEdit: string[], secondEdit: string[]): Promise<number> {
  await ok(first(['edit-account', String(accountId), ...firstEdit]));
  await ok(second(['edit-account', String(accountId), ...secondEdit]));
  expect((await first(['sync'])).code).toBe(SYNC_EXIT.delivered);
  const synced = await second(['sync', '--json']);
  expect(synced.code).toBe(SYNC_EXIT.refused);
  expect(synced.json()).toMatchObject({ conflicts: 1, pushed: 0 });
  const [entry] = (await second(['outbox', '--json'])).json();
  expect(entry).toMatchObject({ kind: 'editAccount', status: 'conflict' });
  return entry.id as number;
}

/** The second copy's choice sent, and the first copy brought up to date. */
async function resolvedAndSynced(id: number, choice: string[]) {
  const resolved = await ok(second(['outbox', 'resolve', String(id), ...choice]));
  expect(resolved.out).toMatch(new RegExp(`^Entry ${id} resolved \\(`));
  expect((await second(['outbox', '--json'])).json()).toMatchObject([{ id, status: 'pending' }]);
  expect((await second(['sync', '--json'])).json()).toMatchObject({ pushed: 1, conflicts: 0, error: null });
  expect((await second(['outbox', '--json'])).json()).toEqual([]);
  expect((await first(['sync'])).code).toBe(SYNC_EXIT.delivered);
}

beforeAll(async () => {
  service = await startTestService();
  seedTestUser(service.dataFile, credentials);
  truth = soapClient(service.url, service.namespace, { credentials });
  for (const copy of [first, second]) await ok(copy(['connect', '--url', service.url, '--login', credentials.login]));
  await ok(first(['add-account', '--name', 'Wallet', '--currency', '203', '--type', '1', '--description', 'cash']));
  await ok(first(['sync']));
  await ok(second(['sync']));
  accountId = (await second(['accounts', '--json'])).json().accounts[0].id;
  expect(accountId).toBeGreaterThan(0);
});
afterAll(async () => {
  truth.close();
  await service.close();
  tmp.remove();
});

describe('a conflict resolved from the command line', () => {
  it("--field keeps the chosen side of the conflicting field and the other copy's untouched fields", async () => {
    const id = await conflictOf(['--name', 'Laptop wallet', '--ord', '2'], ['--ord', '3', '--locked', 'true']);

    const show = await ok(second(['outbox', 'show', String(id)]));
    expect(show.out).toMatch(new RegExp(`^Outbox entry ${id}: editAccount of record ${accountId}, conflict,`));
    expect(show.out).toMatch(/^FIELD +BASE +MINE +THEIRS$/m);
    expect(show.out).toMatch(/^ord +0 +3 +2 +conflict$/m);
    expect(show.out).toMatch(/^name +"Wallet" +"Wallet" +"Laptop wallet"$/m);
    expect(show.out).toMatch(/^locked +false +true +false$/m);
    expect(show.out).toContain(`outbox resolve ${id} --mine`);
    const detail = (await second(['outbox', 'show', String(id), '--json'])).json() as OutboxEntryDetail;
    // Every field an account edit changes, from the account's field table, and only ord in conflict.
    expect(detail.fields.map((f) => f.field)).toEqual(['name', 'description', 'type', 'isActive', 'isHidden', 'locked', 'ord']);
    expect(detail.fields.filter((f) => f.conflict)).toEqual([{ field: 'ord', base: 0, mine: 3, theirs: 2, conflict: true }]);

    await resolvedAndSynced(id, ['--field', 'ord=mine']);
    expect(await theService()).toMatchObject({ Name: 'Laptop wallet', Description: 'cash', Locked: true, Ord: 3 });
    // The first copy sees the same.
    expect((await first(['accounts', '--all', '--json'])).json().accounts.find((a: { id: number }) => a.id === accountId)).toMatchObject({
      name: 'Laptop wallet',
      locked: true,
      ord: 3,
    });
  });

  it("--theirs keeps the service's value of the conflicting field and still sends the other changed fields", async () => {
    const id = await conflictOf(['--ord', '5', '--description', 'pocket'], ['--ord', '6', '--hidden', 'true']);
    await resolvedAndSynced(id, ['--theirs']);
    expect(await theService()).toMatchObject({ Name: 'Laptop wallet', Description: 'pocket', IsHidden: true, Locked: true, Ord: 5 });
  });

  it('--mine keeps my value of every conflicting field', async () => {
    const id = await conflictOf(['--ord', '7', '--name', 'Laptop'], ['--ord', '8', '--name', 'Desktop', '--active', 'false']);
    const detail = (await second(['outbox', 'show', String(id), '--json'])).json() as OutboxEntryDetail;
    expect(detail.fields.filter((f) => f.conflict).map((f) => f.field)).toEqual(['name', 'ord']);
    await resolvedAndSynced(id, ['--mine']);
    expect(await theService()).toMatchObject({ Name: 'Desktop', Description: 'pocket', IsActive: false, IsHidden: true, Ord: 8 });
  });

  it('--field for one field and --theirs for the rest', async () => {
    const id = await conflictOf(['--ord', '9', '--name', 'Left'], ['--ord', '10', '--name', 'Right']);
    await resolvedAndSynced(id, ['--theirs', '--field', 'name=mine']);
    expect(await theService()).toMatchObject({ Name: 'Right', Ord: 9 });
  });

  it('refuses wrong ids, fields and flags with one line that says why, and changes nothing', async () => {
    const id = await conflictOf(['--ord', '11'], ['--ord', '12']);
    expectCliFailure(await second(['outbox', 'show', '4242']), /^error: Outbox entry 4242 does not exist\.$/);
    expectCliFailure(await second(['outbox', 'show', 'x']), /The outbox entry id must be a whole number, not "x"\./);
    expectCliFailure(await second(['outbox', 'resolve', '4242', '--mine']), /Outbox entry 4242 does not exist\./);
    expectCliFailure(
      await second(['outbox', 'resolve', String(id)]),
      /Say which side to keep: --mine, --theirs or --field <name>=mine\|theirs\./,
    );
    expectCliFailure(await second(['outbox', 'resolve', String(id), '--mine', '--theirs']), /Give --mine or --theirs, not both\./);
    expectCliFailure(
      await second(['outbox', 'resolve', String(id), '--field', 'name=mine']),
      /name is not a field in conflict; the fields in conflict are ord\./,
    );
    expectCliFailure(
      await second(['outbox', 'resolve', String(id), '--field', 'nmae=theirs', '--mine']),
      /nmae is not a field in conflict; the fields in conflict are ord\./,
    );
    expectCliFailure(
      await second(['outbox', 'resolve', String(id), '--field', 'ord=yours']),
      /--field must be <field>=mine or <field>=theirs, not "ord=yours"\./,
    );
    expectCliFailure(await second(['outbox', 'resolve', String(id), '--field', 'ord']), /--field must be <field>=mine or <field>=theirs/);
    expectCliFailure(
      await second(['outbox', 'resolve', String(id), '--field', 'ord=mine', '--field', 'ord=theirs']),
      /--field names ord more than once\./,
    );
    expectCliFailure(await second(['outbox', 'resolve', String(id), '--ours']), /Unknown option --ours\./);
    // Nothing was changed by the refusals: the entry still waits for a choice.
    expect((await second(['outbox', '--json'])).json()).toMatchObject([{ id, status: 'conflict' }]);

    await resolvedAndSynced(id, ['--field', 'ord=theirs']);
    expect((await theService()).Ord).toBe(11);
    // A write not in conflict has nothing to resolve.
    await ok(second(['edit-account', String(accountId), '--ord', '13']));
    const [pending] = (await second(['outbox', '--json'])).json();
    expectCliFailure(
      await second(['outbox', 'resolve', String(pending.id), '--mine']),
      new RegExp(`Outbox entry ${pending.id} has no conflict to resolve\\.`),
    );
    await ok(second(['sync']));
  });
});
