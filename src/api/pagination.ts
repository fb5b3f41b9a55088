/** What every list endpoint answers beside its items (DESIGN §6: offset/limit, not cursors). */
export interface PageInfo {
  total: number;
  offset: number;
  limit: number;
}

export function pageInfo(body: unknown): PageInfo | undefined {
  if (typeof body !== 'object' || body === null || !Array.isArray((body as { items?: unknown }).items)) return undefined;
  const { total, offset, limit } = body as Record<string, unknown>;
  if (typeof total !== 'number' || typeof offset !== 'number' || typeof limit !== 'number' || limit < 1) return undefined;
  return { total, offset, limit };
}

/**
 * RFC 8288 links to the neighbouring pages of a list, keeping the other query parameters as they
 * were asked: `</ap-invoices?status=open&offset=200&limit=200>; rel="next"`. Undefined on a single page.
 */
export function pageLinks(path: string, asked: Record<string, unknown>, page: PageInfo): string | undefined {
  const link = (offset: number, rel: string) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(asked)) if (k !== 'offset' && k !== 'limit' && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')) q.append(k, String(v));
    q.set('offset', String(offset));
    q.set('limit', String(page.limit));
    return `<${path}?${q.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page.offset + page.limit < page.total) links.push(link(page.offset + page.limit, 'next'));
  if (page.offset > 0) links.push(link(Math.max(0, page.offset - page.limit), 'prev'));
  return links.length ? links.join(', ') : undefined;
}
