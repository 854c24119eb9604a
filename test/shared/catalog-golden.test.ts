/**
 * The catalog against service-interface.md, written out by hand from its tables (4.3 and section 2), so
 * that a slip in the catalog cannot hide behind tests generated from the catalog itself.
 */
import { describe, expect, it } from 'vitest';
import { FLAT_RECORDS, OPERATIONS, soapAction, soapResultElement, wireParams } from '../../src-shared/catalog';

const INTERFACE_TABLE: [op: string, password: string, extra: string, root: string, content: string][] = [
  ['AccountList2', 'userPassword', '', 'apiResultAccountList2', 'list apiAccount2'],
  ['AccountListWithAmount2', 'userPassword', '', 'apiResultAccountList2', 'list apiAccount2'],
  ['AccountListWithAmount', 'userPassword', '', 'apiResultAccountList', 'list apiAccount'],
  ['TransactionListLast50_2', 'UserPassword', 'AccountId:long', 'apiResultTransactionList2', 'list apiTransaction2'],
  ['TransactionListLast50', 'UserPassword', 'AccountId:long', 'apiResultTransactionList', 'list apiTransaction'],
  ['DefineTransactionList', 'userPassword', '', 'apiResultDefineTransactionList', 'list apiDefineTransaction'],
  ['DefineTransactionList2', 'userPassword', '', 'apiResultDefineTransactionList2', 'list apiDefineTransaction2'],
  ['CarFuelList', 'userPassword', 'CarId:long', 'apiResultCarFuelList', 'list apiCarFuel'],
  ['CategoryTree', 'UserPassword', '', 'apiResultCategoryTree', 'categoryTree'],
  [
    'AddAccount',
    'UserPassword',
    'Name:string Description:string Currency:long Type:long IsActive:boolean IsHidden:boolean Locked:boolean Ord:long',
    'apiResultAddAccount',
    'single apiAccount2',
  ],
  [
    'EditAccount',
    'UserPassword',
    'Id_Account:long Name:string Description:string Type:long IsActive:boolean IsHidden:boolean Locked:boolean Ord:long',
    'apiResultEditAccount',
    'single apiAccount2',
  ],
  [
    'AddTranferToOtherAccount',
    'UserPassword',
    'Amount:double Description:string Id_SourceAccount:long Id_TargetAccount:long Id_Category:long PaymentDate:dateTime',
    'apiResultAddTransferToOtherAccount',
    'transferPair',
  ],
  ['AddCategory', 'UserPassword', 'Name:string Id_ParentCategory:long', 'apiResultAddCategory', 'categoryTree'],
  ['EditCategory', 'UserPassword', 'Id_Category:long Name:string', 'apiResultEditCategory', 'categoryTree'],
  [
    'EditCarFuel',
    'UserPassword',
    'CarId:long Id_CarFuel:long Liter:double Price:double Tachometer:long DateOfPurchase:dateTime Currency:long Description:string Rate:double',
    'apiResultEditCarFuel',
    'single apiCarFuel',
  ],
];

const RECORD_TABLE: Record<string, string> = {
  apiAccount:
    'Id:long Name:string Type:long Currency:long IsActive:boolean Locked:boolean Description:string Ord:long UserAccountPermission:long Amount:double',
  apiAccount2:
    'Id:long Name:string Type:long Currency:long IsActive:boolean Locked:boolean Description:string Ord:long UserAccountPermission:long Amount:double IsHidden:boolean',
  apiTransaction2:
    'Id:long Id_User:long Id_UserCreated:long Id_Account:long PaymentDate:dateTime Type:long Amount:double Description:string Id_Category:long',
  apiTransaction:
    'Id_User:long Id_UserCreated:long Id_Account:long PaymentDate:dateTime Type:long Amount:double Description:string Id_Category:long',
  apiDefineTransaction:
    'Id:long Id_User:long Id_UserCreated:long Id_Account:long Type:long Amount:double Description:string Id_Category:long',
  apiDefineTransaction2:
    'Id:long Id_User:long Id_UserCreated:long Id_Account:long Type:long Amount:double Description:string Id_Category:long Ord:long',
  apiCarFuel:
    'Id:long Id_UserCreated:long DateOfPurchase:dateTime Id_Car:long Tachometer:long Liter:double Price:double Description:string Currency:long Rate:double',
};

describe('catalog matches the interface document', () => {
  it('lists exactly the operations of 4.3', () => {
    expect(Object.keys(OPERATIONS).sort()).toEqual(INTERFACE_TABLE.map((r) => r[0]).sort());
  });

  it.each(INTERFACE_TABLE)('%s', (op, password, extra, root, content) => {
    const spec = OPERATIONS[op as keyof typeof OPERATIONS];
    expect(spec.name).toBe(op);
    expect(spec.passwordParam).toBe(password);
    expect(spec.params.map((p) => `${p.name}:${p.type}`).join(' ')).toBe(extra);
    expect(spec.httpResultRoot).toBe(root);
    const r = spec.result;
    expect('record' in r ? `${r.kind} ${r.record}` : r.kind).toBe(content);
    expect(
      wireParams(spec.name)
        .slice(0, 3)
        .map((p) => p.name),
    ).toEqual(['APIClientKey', 'UserLogin', password]);
  });

  it.each(Object.entries(RECORD_TABLE))('record %s has the fields of section 2 in order', (record, fields) => {
    const spec = FLAT_RECORDS[record as keyof typeof FLAT_RECORDS];
    expect(spec.fields.map((f) => `${f.name}:${f.type}`).join(' ')).toBe(fields);
  });

  it('keeps the odd spellings', () => {
    expect(OPERATIONS.AddTranferToOtherAccount.httpResultRoot).toBe('apiResultAddTransferToOtherAccount');
    expect(soapResultElement('AddTranferToOtherAccount')).toBe('AddTranferToOtherAccountResult');
  });

  it('joins namespace and operation into SOAPAction with exactly one slash', () => {
    expect(soapAction('http://tempuri.org/', 'AccountList2')).toBe('http://tempuri.org/AccountList2');
    expect(soapAction('urn:books', 'AccountList2')).toBe('urn:books/AccountList2');
  });
});
