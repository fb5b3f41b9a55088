/** An RFC 9457 problem: a machine `code` and one sentence. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  code: string;
  detail: string;
  business_date: string;
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

export function problem(status: number, code: string, detail: string, businessDate: string): Problem {
  return { type: `urn:bb-erp:problem:${code}`, title: TITLES[status] ?? 'Error', status, code, detail, business_date: businessDate };
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
