/**
 * The check of every answer, rule by rule, on crafted results (the hostile-service suite drives the
 * same checks through a sync): ids, duplicates, caps, cycles and depth, and write answers that are not
 * the record written.
 */
import { describe, expect, it } from 'vitest';
import { callToAppError } from '../../src-main/core/soap-client';
import {
  ANSWER_CHECKS,
  MAX_CATEGORY_DEPTH,
  RECORD_CAPS,
  UntrustedAnswerError,
  checkAnswer,
  countBeforeParsing,
} from '../../src-main/core/soap-client/trust';
import { readWsdl } from '../../src-main/core/soap-client/wsdl';
import { classify } from '../../src-main/core/sync/engine';
import { WsdlDocument } from '../../src-service/server/wsdl';
import type { ApiAccount2, ApiCategory, ApiTransaction2 } from '../../src-shared/catalog';
import { OPERATION_NAMES } from '../../src-shared/catalog';
import { buildResponse } from '../../src-shared/wire';
import { caught } from '../support/caught';

const account = (Id: number, Name = `A${Id}`): ApiAccount2 => ({
  Id,
  Name,
  Type: 1,
  Currency: 203,
  IsActive: true,
  Locked: false,
  Description: '',
  Ord: 0,
  UserAccountPermission: 3,
  Amount: 0,
  IsHidden: false,
});
const tx = (Id: number, Id_Account: number): ApiTransaction2 => ({
  Id,
  Id_User: 1,
  Id_UserCreated: 1,
  Id_Account,
  PaymentDate: '2026-11-01T08:00:00',
  Type: 3,
  Amount: 1,
  Description: '',
  Id_Category: 0,
});
const refused = (fn: () => unknown, pattern: RegExp) => {
  const error = caught(fn, UntrustedAnswerError);
  expect(error.transient).toBe(false);
  expect(error.sent).toBe(true);
  expect(error.message).toMatch(pattern);
};

describe('the check of every answer', () => {
  it('an answer refused is the service’s doing, in a direct call as in a sync: never "unreachable"', () => {
    const error = caught(() => checkAnswer('AccountListWithAmount2', [account(0)], {}), UntrustedAnswerError);
    expect(callToAppError(error)).toMatchObject({ code: 'serviceAnswerUnusable', kind: 'service', params: { detail: error.message } });
    expect(classify(error, 3)).toEqual({ code: 'service', error: callToAppError(error).toData() });
  });

  it('covers every operation of the catalog', () => {
    expect(Object.keys(ANSWER_CHECKS).sort()).toEqual([...OPERATION_NAMES].sort());
  });

  it('lists: positive ids, no two records of one id with different content (identical ones dropped), a cap', () => {
    expect(checkAnswer('AccountListWithAmount2', [account(1), account(1), account(2)], {})).toHaveLength(2);
    refused(
      () => checkAnswer('AccountListWithAmount2', [account(1), account(1, 'other')], {}),
      /lists account 1 twice, with different content/,
    );
    refused(() => checkAnswer('AccountList2', [account(0)], {}), /account Id is 0, not a positive id/);
    refused(
      () =>
        checkAnswer(
          'DefineTransactionList2',
          [{ Id: 3, Id_User: 1, Id_UserCreated: 1, Id_Account: -1, Type: 1, Amount: 1, Description: '', Id_Category: 0, Ord: 0 }],
          {},
        ),
      /template Id_Account is -1/,
    );
    refused(
      () => checkAnswer('TransactionListLast50_2', [tx(5, 1), { ...tx(6, 1), Id_Category: -3 }], { AccountId: 1 }),
      /transaction Id_Category is -3/,
    );
    const many = Array.from({ length: RECORD_CAPS.transactions + 1 }, (_, i) => tx(i + 1, 1));
    refused(
      () => checkAnswer('TransactionListLast50_2', many, { AccountId: 1 }),
      /lists 501 transaction records; the app handles at most 500/,
    );
  });

  it('category trees: an id twice (a cycle or a shared child), nesting past the limit', () => {
    const leaf = (Id: number): ApiCategory => ({ Id, Name: `C${Id}`, ChildCategories: null });
    refused(
      () =>
        checkAnswer(
          'CategoryTree',
          {
            FavoritCategories: [],
            AllCategories: [
              { ...leaf(1), ChildCategories: [leaf(2)] },
              { ...leaf(3), ChildCategories: [leaf(2)] },
            ],
          },
          {},
        ),
      /category 2 appears twice/,
    );
    let deep: ApiCategory = leaf(1000);
    for (let i = 0; i < MAX_CATEGORY_DEPTH; i++) deep = { Id: i + 1, Name: `D${i}`, ChildCategories: [deep] };
    refused(
      () => checkAnswer('AddCategory', { FavoritCategories: [], AllCategories: [deep] }, { Name: 'x', Id_ParentCategory: 0 }),
      /nest deeper than 32 levels/,
    );
    // A favourite repeats a category of the tree: that is no cycle.
    expect(
      checkAnswer('CategoryTree', { FavoritCategories: [leaf(2)], AllCategories: [{ ...leaf(1), ChildCategories: [leaf(2)] }] }, {})
        .AllCategories,
    ).toHaveLength(1);
  });

  it('write answers: the record written, with positive ids on the accounts asked for', () => {
    refused(() => checkAnswer('EditAccount', account(7), { Id_Account: 8 } as never), /answers with account 7 for an edit of account 8/);
    const params = {
      Amount: 1,
      Description: '',
      Id_SourceAccount: 1,
      Id_TargetAccount: 2,
      Id_Category: 0,
      PaymentDate: '2026-11-01T08:00:00',
    };
    refused(
      () => checkAnswer('AddTranferToOtherAccount', { Transaction1: tx(9, 1), Transaction2: tx(9, 2) }, params),
      /both sides of the transfer have id 9/,
    );
    refused(
      () => checkAnswer('AddTranferToOtherAccount', { Transaction1: tx(9, 1), Transaction2: tx(10, 3) }, params),
      /its two sides are on accounts 1,3, not on 1,2 as asked/,
    );
    expect(checkAnswer('AddTranferToOtherAccount', { Transaction1: tx(9, 1), Transaction2: tx(10, 2) }, params).Transaction2.Id).toBe(10);
    const fuel = {
      Id: 4,
      Id_UserCreated: 1,
      DateOfPurchase: '2026-11-01T08:00:00',
      Id_Car: 1,
      Tachometer: 1,
      Liter: 1,
      Price: 1,
      Description: '',
      Currency: 203,
      Rate: 1,
    };
    refused(
      () => checkAnswer('EditCarFuel', { ...fuel, Id: 5 }, { Id_CarFuel: 4 } as never),
      /answers with refueling 5 for an edit of refueling 4/,
    );
    refused(() => checkAnswer('EditCarFuel', { ...fuel, Id: 0 }, { Id_CarFuel: 0 } as never), /refueling Id is 0/);
  });

  it('counts the records of a list in its text before parsing, prefixed or not', () => {
    const body = buildResponse(
      'soap12',
      'AccountListWithAmount2',
      Array.from({ length: RECORD_CAPS.accounts + 1 }, (_, i) => account(i + 1)),
      'http://tempuri.org/',
    ).body;
    refused(() => countBeforeParsing('AccountListWithAmount2', body), /holds more than 5,000 apiAccount2 records/);
    refused(
      () => countBeforeParsing('AccountListWithAmount2', body.replace(/<apiAccount2>/g, '<x:apiAccount2 xmlns:x="urn:x">')),
      /holds more than 5,000/,
    );
    expect(() => countBeforeParsing('AccountListWithAmount2', body.replace(/<apiAccount2>/, '<nothing>'))).not.toThrow();
  });
});

describe("the WSDL's namespace", () => {
  it('must be an absolute URI (http:, https:, urn: ...); anything else is refused before it reaches a request', () => {
    const wsdl = new WsdlDocument('http://tempuri.org/').render('http://127.0.0.1:1');
    expect(readWsdl(wsdl, 'http://127.0.0.1:1').namespace).toBe('http://tempuri.org/');
    const urn = wsdl.replace('targetNamespace="http://tempuri.org/"', 'targetNamespace="urn:books"');
    expect(readWsdl(urn, 'http://127.0.0.1:1').namespace).toBe('urn:books');
    for (const bad of ['books', 'tempuri.org/x', 'http://a b/']) {
      const text = wsdl.replace('targetNamespace="http://tempuri.org/"', `targetNamespace="${bad}"`);
      expect(() => readWsdl(text, 'http://127.0.0.1:1')).toThrow(/is not an absolute URI/);
    }
  });
});
