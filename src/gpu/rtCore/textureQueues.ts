// The RT core's side of its texture link: txd requests queue on their way out, answers queue until a write-back slot takes them.
import { Bool, type BoolValue, type ModuleBuilder, type UIntValue, type ValueOf } from '../../hdl/index.ts';
import { Fifo } from '../../hdl/lib/index.ts';
import { TxdRequest, TxdResponse, type TextureLink } from '../texture/txdLink.ts';

/** A txd request's fields. */
export type TxdFields = { readonly [K in keyof ReturnType<typeof TxdRequest>['fields']]: UIntValue };

export interface TextureQueues {
  /** An answer waits for its write-back. */
  readonly answerWaiting: BoolValue;
  /** The oldest waiting answer. */
  readonly answer: ValueOf<ReturnType<typeof TxdResponse>>;
  /** Send the txd read in R this cycle (`tag`: its context); called once. */
  send(en: BoolValue, fields: TxdFields): void;
  /** The oldest answer's write-back was scheduled this cycle. */
  take(en: BoolValue): void;
}

/**
 * Each context has at most one txd anywhere between its R stage and its write-back, so queues of one
 * entry per context never fill: the core takes every answer the cycle it is offered.
 */
export function textureQueues(m: ModuleBuilder, link: ValueOf<ReturnType<typeof TextureLink>>, contexts: number, tagBits: number): TextureQueues {
  const depth = Math.max(2, contexts);
  const requestType = TxdRequest(tagBits);
  const responseType = TxdResponse(tagBits);
  const requests = m.instance(Fifo, { payload: requestType, depth }, { name: 'txd_requests' });
  m.connect(link.request.bits, requests.io.deq.bits);
  link.request.valid.set(requests.io.deq.valid);
  requests.io.deq.ready.set(link.request.ready);
  const answers = m.instance(Fifo, { payload: responseType, depth }, { name: 'txd_answers' });
  answers.io.enq.valid.set(link.response.valid);
  m.connect(answers.io.enq.bits, link.response.bits);
  link.response.ready.set(answers.io.enq.ready);
  const request = m.wire(requestType, { name: 'txd_request' });
  m.connect(requests.io.enq.bits, request);
  const takeAnswer = m.wire(Bool, { default: false, name: 'txd_take' });
  answers.io.deq.ready.set(takeAnswer);
  return {
    answerWaiting: answers.io.deq.valid,
    answer: answers.io.deq.bits,
    send: (en, fields) => {
      requests.io.enq.valid.set(en);
      for (const k of Object.keys(fields) as (keyof TxdFields)[]) request[k].set(fields[k]);
    },
    take: (en) => m.when(en, () => takeAnswer.set(true)),
  };
}
