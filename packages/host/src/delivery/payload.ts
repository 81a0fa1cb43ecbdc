/** Payload of a `deliver` job: the exact bytes to POST on every attempt, and the event type. */
export interface DeliverJobPayload {
  eventType: string;
  body: string;
  /** W3C trace context of the fan-out that created the job (tracing on): each attempt's span parent. */
  traceparent?: string;
}
