/** New refuelings and refueling edits: both EditCarFuel (Id_CarFuel 0 creates one). */
import { AppError, RECORD_TABLES, type WriteInputOf } from '../../../src-shared/app-api';
import type { ApiCarFuel, ParamsOf } from '../../../src-shared/catalog';
import { currencyDigits, currencyLabel, decimalPlaces, parseDecimal } from '../../../src-shared/money';
import { pick } from '../../../src-shared/records/fields';
import { REFUELING } from '../../../src-shared/records/refueling';
import { changedFields, refuelingIn, type RefuelingFields } from '../outbox/view-state';
import { fromWire, refuelingFromApi, type CarRow } from '../store/rows';
import { baseFor, findEditEffect, prepareEdit } from './edits';
import { EffectUndecidable, type ApplyContext, type CheckContext, type EditSpec, type Effect, type Fields, type WriteKind } from './kind';
import { assertNothingUnexplained, idsBefore, mayBeUnlisted, revivedProbe, sameFields } from './listing';
import { idParam, paramsOf } from './params';

type RefuelingInput = WriteInputOf<'addRefueling'>;

/** The service's refueling in the edit input's terms: the fields sent (decimals as canonical text). */
export function refuelingFields(r: ApiCarFuel): Fields {
  return fromWire(REFUELING, REFUELING.sent, r);
}

/** EditCarFuel's parameters from the fields sent, by the field table (Id_CarFuel 0 creates one). */
function refuelingParams(f: Fields, id: number): ParamsOf<'EditCarFuel'> {
  return { ...idParam(REFUELING, id), ...paramsOf(REFUELING, REFUELING.sent, f) } as ParamsOf<'EditCarFuel'>;
}

export interface RefuelingProblem {
  field: keyof RefuelingInput;
  error: AppError;
}

/**
 * What keeps a refueling that passed its schema from being queued: a car not in the list, and a price
 * with more decimals than its currency has (a rule across two fields, which the schema cannot say).
 */
export function refuelingProblems(i: RefuelingInput, cars: readonly CarRow[]): RefuelingProblem[] {
  const problems: RefuelingProblem[] = [];
  if (!cars.some((c) => c.carId === i.carId)) {
    problems.push({ field: 'carId', error: new AppError('carNotListed', { carId: i.carId }, 'carId') });
  }
  const digits = currencyDigits(i.currency);
  if (decimalPlaces(parseDecimal(i.price)!) > digits) {
    problems.push({ field: 'price', error: new AppError('priceDecimals', { currency: currencyLabel(i.currency), max: digits }, 'price') });
  }
  return problems;
}

function checkRefueling(i: RefuelingInput, ctx: CheckContext): void {
  const p = refuelingProblems(i, ctx.store.cars.list())[0];
  if (p) throw p.error;
}

const readRefueling = (refueling: ApiCarFuel): Effect => ({ kind: 'refueling', refueling });

/** Whether a listed refueling holds what a new one sent, in the fields a refueling is told by. */
export const refuelingMatches = (r: ApiCarFuel, i: RefuelingInput): boolean =>
  sameFields(REFUELING, fromWire(REFUELING, REFUELING.matched, r), i);

function storeRefueling(effect: Effect, ctx: ApplyContext): ApiCarFuel | null {
  if (effect.kind !== 'refueling') return null;
  ctx.store.refuelings.upsert([refuelingFromApi(effect.refueling)]);
  return effect.refueling;
}

export const addRefueling: WriteKind<'addRefueling'> = {
  label: 'new refueling',
  touches: RECORD_TABLES.refuelings,
  creates: ['refueling'],
  references: [],
  marks: REFUELING,
  edit: null,
  keys: (entry) => [`refueling:${entry.createdIds[0]}`],
  check(raw, ctx) {
    checkRefueling(raw, ctx);
    return { input: raw, base: null };
  },
  lay(state, entry) {
    const id = entry.createdIds[0]!;
    state.refuelingCreates.set(id, { ...entry.input, id, userCreatedId: 0, pending: true, local: true });
    state.pendingCars.add(entry.input.carId);
  },
  async prepare(entry, ctx) {
    const ids = (await ctx.snapshot.refuelings(entry.input.carId)).map((r) => r.Id);
    return { action: 'send', call: { operation: 'EditCarFuel', params: refuelingParams(entry.input, 0) }, probe: { ids } };
  },
  send: async (_entry, call, _probe, ctx) => readRefueling(await ctx.client.call('EditCarFuel', call.params as never)),
  probeFromCopy: (entry, store) => revivedProbe(store.refuelings.ids(entry.input.carId)),
  async findEffect(entry, ctx) {
    const before = idsBefore(entry.probe);
    const own = ctx.outbox.ownIds('refueling');
    const i = entry.input;
    const listed = await ctx.snapshot.refuelings(i.carId);
    let unexplained = 0;
    for (const r of listed) {
      if (before.has(r.Id) || own.has(r.Id)) continue;
      if (refuelingMatches(r, i)) return readRefueling(r);
      unexplained++;
    }
    if (
      mayBeUnlisted(
        listed.map((r) => r.DateOfPurchase),
        i.dateOfPurchase,
      )
    ) {
      throw new EffectUndecidable(
        `Whether this refueling reached the service cannot be told: it is dated before the last 50 refuelings the service lists for car ${i.carId}. ` +
          'If the service has it, discard this write; if not, retry it.',
      );
    }
    assertNothingUnexplained(entry.probe, unexplained);
    return null;
  },
  apply(entry, effect, ctx) {
    const refueling = storeRefueling(effect, ctx);
    if (!refueling) return;
    ctx.outbox.markOwn('refueling', refueling.Id);
    ctx.outbox.replaceTempId('refueling', entry.createdIds[0]!, refueling.Id);
  },
};

const refuelingEdit: EditSpec<'editRefueling'> = {
  record: 'refueling',
  fields: REFUELING.edited,
  async theirs(entry, ctx) {
    // The service lists a car's last 50; an older refueling is merged with the local copy's record.
    const id = entry.input.id;
    const carId = entry.base && typeof entry.base.carId === 'number' ? entry.base.carId : entry.input.carId;
    const listed = (await ctx.snapshot.refuelings(carId)).find((r) => r.Id === id);
    if (listed) return refuelingFields(listed);
    const stored = ctx.store.refuelings.get(id);
    return stored ? { ...stored } : null;
  },
  call: (id, values) => ({ operation: 'EditCarFuel', params: refuelingParams(values, id) }),
  stored(id, store) {
    const r = store.refuelings.get(id);
    return r ? pick(r, REFUELING.edited) : null;
  },
};

export const editRefueling: WriteKind<'editRefueling'> = {
  label: 'refueling edit',
  touches: RECORD_TABLES.refuelings,
  creates: [],
  references: [['id', 'refueling']],
  marks: REFUELING,
  edit: refuelingEdit,
  keys: (entry) => [`refueling:${entry.input.id}`],
  check(raw, ctx) {
    const id = ctx.resolve(raw.id);
    const current = refuelingIn(ctx.state, ctx.store, id);
    if (!current) throw new AppError('refuelingMissing', { id: raw.id }, 'id');
    checkRefueling(raw, ctx);
    return { input: { ...raw, id }, base: baseFor(refuelingEdit.fields, id, current, ctx.previous), targetId: id };
  },
  lay(state, entry) {
    const changes = changedFields(entry, refuelingEdit.fields) as Partial<RefuelingFields>;
    const id = entry.input.id;
    const created = state.refuelingCreates.get(id);
    if (created) {
      state.pendingCars.add(created.carId);
      Object.assign(created, changes);
    } else {
      state.refuelingEdits.set(id, { ...state.refuelingEdits.get(id), ...changes });
    }
    state.pendingCars.add(entry.input.carId);
  },
  prepare: (entry, ctx) => prepareEdit(refuelingEdit, entry, ctx),
  send: async (_entry, call, _probe, ctx) => readRefueling(await ctx.client.call('EditCarFuel', call.params as never)),
  probeFromCopy: () => null,
  findEffect: (entry, ctx) => findEditEffect(refuelingEdit, entry, ctx),
  apply: (_entry, effect, ctx) => void storeRefueling(effect, ctx),
};
