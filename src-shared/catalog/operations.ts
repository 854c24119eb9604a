/**
 * The 15 operations of service-interface.md section 4.3: the single description that drives the codec,
 * the SOAP client, the service and the tests. Names keep the interface's spellings
 * (`AddTranferToOtherAccount`, `apiResultAddTransferToOtherAccount`).
 */
import type { ApiCategoryTree, ApiTransferPair, FlatRecord, FlatRecordName } from './records';
import { field, type FieldList, type ValuesOf } from './wire-types';

export type PasswordParam = 'userPassword' | 'UserPassword';

export type ResultShape =
  | { readonly kind: 'list'; readonly record: FlatRecordName }
  | { readonly kind: 'single'; readonly record: FlatRecordName }
  | { readonly kind: 'categoryTree' }
  | { readonly kind: 'transferPair' };

export interface OperationSpec {
  readonly name: string;
  readonly access: 'read' | 'write';
  readonly passwordParam: PasswordParam;
  /** Parameters after the three common ones, in wire order. */
  readonly params: FieldList;
  /** Root element of the HTTP GET/POST answer, and the schema type of the SOAP `...Result` element. */
  readonly httpResultRoot: string;
  readonly result: ResultShape;
  /** What the operation does, in English and in the Czech the service's documentation uses. */
  readonly summary: { readonly en: string; readonly cs: string };
}

const accountId = field('AccountId', 'long');
const carId = field('CarId', 'long');
const list = <R extends FlatRecordName>(record: R) => ({ kind: 'list', record }) as const;
const single = <R extends FlatRecordName>(record: R) => ({ kind: 'single', record }) as const;
const categoryTree = { kind: 'categoryTree' } as const;

export const OPERATIONS = {
  AccountList2: {
    name: 'AccountList2',
    access: 'read',
    passwordParam: 'userPassword',
    params: [],
    httpResultRoot: 'apiResultAccountList2',
    result: list('apiAccount2'),
    summary: { en: 'List of accounts, extended account properties', cs: 'Seznam účtů, rozšířené vlastnosti účtu' },
  },
  AccountListWithAmount2: {
    name: 'AccountListWithAmount2',
    access: 'read',
    passwordParam: 'userPassword',
    params: [],
    httpResultRoot: 'apiResultAccountList2',
    result: list('apiAccount2'),
    summary: {
      en: 'List of accounts with balance, extended account properties',
      cs: 'Seznam účtů se zůstatkem, rozšířené vlastnosti účtu',
    },
  },
  AccountListWithAmount: {
    name: 'AccountListWithAmount',
    access: 'read',
    passwordParam: 'userPassword',
    params: [],
    httpResultRoot: 'apiResultAccountList',
    result: list('apiAccount'),
    summary: { en: 'List of accounts with balance', cs: 'Seznam účtů se zůstatkem' },
  },
  TransactionListLast50_2: {
    name: 'TransactionListLast50_2',
    access: 'read',
    passwordParam: 'UserPassword',
    params: [accountId],
    httpResultRoot: 'apiResultTransactionList2',
    result: list('apiTransaction2'),
    summary: { en: 'The last 50 transactions of the given account', cs: 'Posledních 50 transakcí daného účtu' },
  },
  TransactionListLast50: {
    name: 'TransactionListLast50',
    access: 'read',
    passwordParam: 'UserPassword',
    params: [accountId],
    httpResultRoot: 'apiResultTransactionList',
    result: list('apiTransaction'),
    summary: { en: 'The last 50 transactions of the given account', cs: 'Posledních 50 transakcí daného účtu' },
  },
  DefineTransactionList: {
    name: 'DefineTransactionList',
    access: 'read',
    passwordParam: 'userPassword',
    params: [],
    httpResultRoot: 'apiResultDefineTransactionList',
    result: list('apiDefineTransaction'),
    summary: { en: 'List of transaction templates', cs: 'Seznam předdefinovaných transakcí' },
  },
  DefineTransactionList2: {
    name: 'DefineTransactionList2',
    access: 'read',
    passwordParam: 'userPassword',
    params: [],
    httpResultRoot: 'apiResultDefineTransactionList2',
    result: list('apiDefineTransaction2'),
    summary: {
      en: 'List of transaction templates, extended properties',
      cs: 'Seznam předdefinovaných transakcí, rozšířené vlastnosti',
    },
  },
  CarFuelList: {
    name: 'CarFuelList',
    access: 'read',
    passwordParam: 'userPassword',
    params: [carId],
    httpResultRoot: 'apiResultCarFuelList',
    result: list('apiCarFuel'),
    summary: { en: 'List of refuelings of a car (last 50)', cs: 'Seznam tankování auta (posledních 50)' },
  },
  CategoryTree: {
    name: 'CategoryTree',
    access: 'read',
    passwordParam: 'UserPassword',
    params: [],
    httpResultRoot: 'apiResultCategoryTree',
    result: categoryTree,
    summary: { en: 'Category tree', cs: 'Strom kategorií' },
  },
  AddAccount: {
    name: 'AddAccount',
    access: 'write',
    passwordParam: 'UserPassword',
    params: [
      field('Name', 'string'),
      field('Description', 'string'),
      field('Currency', 'long'),
      field('Type', 'long'),
      field('IsActive', 'boolean'),
      field('IsHidden', 'boolean'),
      field('Locked', 'boolean'),
      field('Ord', 'long'),
    ],
    httpResultRoot: 'apiResultAddAccount',
    result: single('apiAccount2'),
    summary: { en: 'Adds an account', cs: 'Přidá účet' },
  },
  EditAccount: {
    name: 'EditAccount',
    access: 'write',
    passwordParam: 'UserPassword',
    params: [
      field('Id_Account', 'long'),
      field('Name', 'string'),
      field('Description', 'string'),
      field('Type', 'long'),
      field('IsActive', 'boolean'),
      field('IsHidden', 'boolean'),
      field('Locked', 'boolean'),
      field('Ord', 'long'),
    ],
    httpResultRoot: 'apiResultEditAccount',
    result: single('apiAccount2'),
    summary: { en: 'Edits an account', cs: 'Upraví účet' },
  },
  AddTranferToOtherAccount: {
    name: 'AddTranferToOtherAccount',
    access: 'write',
    passwordParam: 'UserPassword',
    params: [
      field('Amount', 'double'),
      field('Description', 'string'),
      field('Id_SourceAccount', 'long'),
      field('Id_TargetAccount', 'long'),
      field('Id_Category', 'long'),
      field('PaymentDate', 'dateTime'),
    ],
    httpResultRoot: 'apiResultAddTransferToOtherAccount',
    result: { kind: 'transferPair' },
    summary: { en: 'Adds a transfer to another account', cs: 'Přidá převod na jiný účet' },
  },
  AddCategory: {
    name: 'AddCategory',
    access: 'write',
    passwordParam: 'UserPassword',
    params: [field('Name', 'string'), field('Id_ParentCategory', 'long')],
    httpResultRoot: 'apiResultAddCategory',
    result: categoryTree,
    summary: { en: 'Adds a category', cs: 'Přidá kategorii' },
  },
  EditCategory: {
    name: 'EditCategory',
    access: 'write',
    passwordParam: 'UserPassword',
    params: [field('Id_Category', 'long'), field('Name', 'string')],
    httpResultRoot: 'apiResultEditCategory',
    result: categoryTree,
    summary: { en: 'Edits (renames) a category', cs: 'Upraví (přejmenuje) kategorii' },
  },
  EditCarFuel: {
    name: 'EditCarFuel',
    access: 'write',
    passwordParam: 'UserPassword',
    params: [
      carId,
      field('Id_CarFuel', 'long'),
      field('Liter', 'double'),
      field('Price', 'double'),
      field('Tachometer', 'long'),
      field('DateOfPurchase', 'dateTime'),
      field('Currency', 'long'),
      field('Description', 'string'),
      field('Rate', 'double'),
    ],
    httpResultRoot: 'apiResultEditCarFuel',
    result: single('apiCarFuel'),
    summary: { en: 'Edits a refueling (Id_CarFuel 0 adds one)', cs: 'Upraví tankování' },
  },
} as const satisfies Record<string, OperationSpec>;

export type OperationName = keyof typeof OPERATIONS;
export const OPERATION_NAMES = Object.keys(OPERATIONS) as OperationName[];

export function isOperationName(name: string): name is OperationName {
  return Object.hasOwn(OPERATIONS, name);
}

export function operation(name: OperationName): OperationSpec {
  return OPERATIONS[name];
}

/** The typed extra parameters of an operation, e.g. `{ AccountId: number }`. */
export type ParamsOf<N extends OperationName> = ValuesOf<(typeof OPERATIONS)[N]['params']>;

type ResultValue<S extends ResultShape> = S extends { kind: 'list'; record: infer R extends FlatRecordName }
  ? FlatRecord<R>[]
  : S extends { kind: 'single'; record: infer R extends FlatRecordName }
    ? FlatRecord<R>
    : S extends { kind: 'categoryTree' }
      ? ApiCategoryTree
      : ApiTransferPair;

/** The typed result of an operation: a list of records, one record, a category tree or a transfer pair. */
export type ResultOf<N extends OperationName> = ResultValue<(typeof OPERATIONS)[N]['result']>;

/** SOAP element names derived from the operation name, as ASMX derives them. */
export const soapResponseElement = (name: OperationName): string => `${name}Response`;
export const soapResultElement = (name: OperationName): string => `${name}Result`;

/** The SOAPAction of an operation: the namespace and the name joined by exactly one slash. */
export function soapAction(namespace: string, name: OperationName): string {
  return namespace.endsWith('/') ? namespace + name : `${namespace}/${name}`;
}

/** The three credentials every call carries; the password's wire name depends on the operation. */
export interface Credentials {
  clientKey: string;
  login: string;
  password: string;
}
export const CLIENT_KEY_PARAM = 'APIClientKey';
export const LOGIN_PARAM = 'UserLogin';

/** Every parameter of an operation in wire order, the common three first. */
export function wireParams(name: OperationName): FieldList {
  const spec = operation(name);
  return [
    { name: CLIENT_KEY_PARAM, type: 'string' },
    { name: LOGIN_PARAM, type: 'string' },
    { name: spec.passwordParam, type: 'string' },
    ...spec.params,
  ];
}

/** The default namespace of an ASMX service that never set one. */
export const DEFAULT_NAMESPACE = 'http://tempuri.org/';

/**
 * Whether a text can be the operations' namespace: an absolute URI (http:, https:, urn: ...), without
 * white space, quotes or angle brackets, at most 500 characters. It goes into every request's XML and
 * SOAPAction, so the service, a WSDL read from a service and a namespace typed by hand all meet it.
 */
export function isNamespaceUri(text: string): boolean {
  return text.length <= 500 && /^[A-Za-z][A-Za-z0-9+.-]*:[^\s"'<>\\]+$/.test(text);
}
