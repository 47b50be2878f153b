// The detail pane's data: GET /waf-logs/{id} for the event on screen, fetched when the pane opens
// (and again for another event), not polled: a request's events do not change once stored.
import { useEffect, useState } from 'react';
import { WafRequestDetailSchema, type WafRequestDetail } from '../../shared/schemas/waf-request.js';
import type { ViewApi } from './view-api.js';

export type RequestDetailState =
  | { kind: 'loading' }
  | { kind: 'error'; error: unknown }
  | { kind: 'ready'; detail: WafRequestDetail };

/** The explained request of event `id`, or undefined when no pane is open (`id` undefined). */
export function useRequestDetail(api: ViewApi, id: number | undefined): RequestDetailState | undefined {
  const [answer, setAnswer] = useState<{ id: number; state: RequestDetailState }>();
  useEffect(() => {
    if (id === undefined) return;
    // An answer for an event the pane no longer shows is dropped (the operator moved on).
    let current = true;
    api
      .get<unknown>(`/waf-logs/${id}`)
      .then((raw) => WafRequestDetailSchema.parse(raw))
      .then(
        (detail) => current && setAnswer({ id, state: { kind: 'ready', detail } }),
        (error: unknown) => current && setAnswer({ id, state: { kind: 'error', error } }),
      );
    return () => {
      current = false;
    };
  }, [api, id]);
  if (id === undefined) return undefined;
  return answer?.id === id ? answer.state : { kind: 'loading' };
}
