/** An RFC 9457 problem: a machine `code` and one sentence. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  code: string;
  detail: string;
  business_date: string;
  /** The occurrence (RFC 9457 §3.1.5): the audit row that recorded the refusal, when one did. */
  instance?: string;
  event_id?: number;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function problem(status: number, code: string, detail: string, businessDate: string, eventId?: number): Problem {
  const out: Problem = { type: `urn:bb-erp:problem:${code}`, title: TITLES[status] ?? 'Error', status, code, detail, business_date: businessDate };
  if (eventId !== undefined) Object.assign(out, { instance: eventInstance(eventId), event_id: eventId });
  return out;
}

/** The URI of an audit row: GET /audit?from_seq=N&limit=1 shows it to whoever may see it. */
export function eventInstance(seq: number): string {
  return `/audit?from_seq=${seq}&limit=1`;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
