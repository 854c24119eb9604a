/**
 * What the head of a request (method, operation in the path, Content-Type, SOAPAction) says before its
 * body is read: the binding, whether its charset is refused, whether its answer can be in the cache of
 * answers, and what the cache key is made of besides the body. Clients send the same few heads over and
 * over (one per operation they call), so each is worked out once and remembered (a bounded memo: an
 * unusual head costs what it always cost).
 */
import { OPERATION_NAMES, isOperationName, soapAction, type OperationName } from '../../src-shared/catalog';
import { WireError, contentTypeParam, detectBinding, unquote, type Binding } from '../../src-shared/wire';
import { isCacheable } from './answer-dependencies';

export interface RequestHead {
  /** The binding; undefined when the request is refused for its head alone (`refusal`). */
  binding: Binding | undefined;
  refusal: WireError | undefined;
  /** A charset other than UTF-8 is declared (refused with 415). */
  charsetRefused: boolean;
  /**
   * Whether an answer to such a request can be in the cache: not when the operation it names (in the
   * path, or in the SOAP action) is a write or a read that is never cached.
   */
  cacheable: boolean;
  /** Everything besides the body that decides how such a request is read: the first part of its cache key. */
  keyHead: string;
}

/** Heads remembered at most; past it the memo starts over. */
const HEADS_MAX = 512;

export class RequestHeads {
  private readonly known = new Map<string, RequestHead>();
  /** SOAP actions of this namespace, to the operation each names. */
  private readonly actions: Map<string, OperationName>;

  constructor(namespace: string) {
    this.actions = new Map(OPERATION_NAMES.map((name) => [soapAction(namespace, name), name]));
  }

  of(
    method: 'GET' | 'POST',
    pathOperation: string | undefined,
    contentType: string | undefined,
    soapActionHeader: string | undefined,
  ): RequestHead {
    const memo = `${method}\u0000${pathOperation ?? '\u0001'}\u0000${contentType ?? '\u0001'}\u0000${soapActionHeader ?? '\u0001'}`;
    let head = this.known.get(memo);
    if (head === undefined) {
      head = this.work(method, pathOperation, contentType, soapActionHeader);
      if (this.known.size >= HEADS_MAX) this.known.clear();
      this.known.set(memo, head);
    }
    return head;
  }

  private work(
    method: 'GET' | 'POST',
    pathOperation: string | undefined,
    contentType: string | undefined,
    soapActionHeader: string | undefined,
  ): RequestHead {
    let binding: Binding;
    try {
      binding = detectBinding({ method, pathOperation, contentType });
    } catch (e) {
      if (!(e instanceof WireError)) throw e;
      return { binding: undefined, refusal: e, charsetRefused: false, cacheable: false, keyHead: '' };
    }
    const charset = binding === 'httpGet' ? undefined : contentTypeParam(contentType, 'charset')?.toLowerCase();
    const charsetRefused = charset !== undefined && charset !== 'utf-8' && charset !== 'utf8';
    let named: string | undefined = pathOperation;
    if (binding === 'soap11') named = soapActionHeader === undefined ? undefined : unquote(soapActionHeader.trim());
    if (binding === 'soap12') named = contentTypeParam(contentType, 'action');
    // A SOAP request without an action is read by its body: it may be anything.
    let cacheable = true;
    if (named !== undefined && named !== '') {
      const operation = binding === 'soap11' || binding === 'soap12' ? this.actions.get(named) : isOperationName(named) ? named : undefined;
      cacheable = operation !== undefined && isCacheable(operation);
    }
    // The parts as the cache has always keyed them: binding, operation in the path, SOAPAction, Content-Type.
    const soap = binding === 'soap11' || binding === 'soap12';
    const keyHead = [binding, pathOperation, soap ? soapActionHeader : undefined, binding === 'httpGet' ? undefined : contentType]
      .map((part) => (part ?? '\u0000') + '\u0001')
      .join('');
    return { binding, refusal: undefined, charsetRefused, cacheable, keyHead };
  }
}
