import type { Tool } from '../../api/tools';
import { GENERIC_TOOL_NAMES } from './generic-tools';

/**
 * How many tools `erp mcp` offers at most. OpenAI takes at most 128 tools per request and models
 * choose worse long before that; a role may call two hundred routes.
 */
export const DEFAULT_TOOL_BUDGET = 64;
/** The generic tools that stand in for the routes left out: erp_get, erp_post, erp_find_tools, erp_describe_tool. */
export const GENERIC_TOOL_COUNT = GENERIC_TOOL_NAMES.length;
/** No budget: every route a tool of its own, as before budgets. */
export const NO_BUDGET = 'all';

export type ToolBudget = number | typeof NO_BUDGET;

/** A budget as `--tool-budget` or ERP_MCP_TOOL_BUDGET give it: a whole number of at least `min`, or `all`. */
export function parseToolBudget(text: string, where: string, min = GENERIC_TOOL_COUNT): ToolBudget {
  const t = text.trim();
  if (t === NO_BUDGET) return NO_BUDGET;
  if (!/^\d+$/.test(t) || Number(t) < min) throw new Error(`${where} must be a whole number of at least ${min} (the generic tools take ${GENERIC_TOOL_COUNT}) or '${NO_BUDGET}', not '${text}'.`);
  return Number(t);
}

/** The name a result records for the tools an agent was offered: `budget:64`, or `all`. */
export function selectionName(budget: ToolBudget): string {
  return budget === NO_BUDGET ? NO_BUDGET : `budget:${budget}`;
}

/** The budget a selection name stands for; undefined for a name that is not one. */
export function budgetOfSelection(name: string): ToolBudget | undefined {
  if (name === NO_BUDGET) return NO_BUDGET;
  const n = /^budget:(\d+)$/.exec(name)?.[1];
  return n === undefined ? undefined : Number(n);
}

/** The tools offered under a budget: named tools, and whether the generic tools stand in for the rest. */
export interface ToolSelection {
  named: Tool[];
  generic: boolean;
}

const isRead = (t: Tool) => t.binding.method === 'GET';
const isList = (t: Tool) => isRead(t) && !t.binding.path.includes('{');
const granted = (t: Tool) => t.binding.permission !== null;
/** The records a route is about: its path's first segment (`/ap-invoices/{id}/holds` → ap-invoices). */
const resourceOf = (t: Tool) => t.binding.path.split('/')[1] ?? '';

/** Lists first (where work is found), then writes, then reads of one record. */
const kindRank = (t: Tool) => (isList(t) ? 0 : isRead(t) ? 2 : 1);

/**
 * The tools in the order a budget takes them, from the route registry alone (what GET /tools.json
 * says of each route: method, path, permission, tag), never from a task or its answer:
 *  0. the caller's session reads (tag `session`: who am I, the audit trail);
 *  1. the writes the caller's own permissions grant: the named actions its role exists for;
 *  2. the other routes about the same records (the first segment of those writes' paths), which
 *     find and show what the actions act on;
 *  3. the other reads its permissions grant;
 *  4. the routes open to every user in the areas (tags) of the routes its permissions grant;
 *  5. every other route.
 * Within a group lists come before writes and writes before reads of one record; names break ties.
 */
export function rankTools(tools: readonly Tool[]): Tool[] {
  const resources = new Set(tools.filter((t) => granted(t) && !isRead(t)).map(resourceOf));
  const areas = new Set(tools.filter(granted).map((t) => t.binding.tag));
  const group = (t: Tool) => {
    if (t.binding.tag === 'session' && isRead(t)) return 0;
    if (granted(t) && !isRead(t)) return 1;
    if (resources.has(resourceOf(t))) return 2;
    if (granted(t)) return 3;
    return areas.has(t.binding.tag) ? 4 : 5;
  };
  return [...tools].sort((a, b) => group(a) - group(b) || kindRank(a) - kindRank(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * What `erp mcp` offers under a budget: every tool when they fit (no generic tools, as before
 * budgets); otherwise the generic tools and the first `budget − GENERIC_TOOL_COUNT` tools of rankTools.
 */
export function selectTools(tools: readonly Tool[], budget: ToolBudget): ToolSelection {
  if (budget === NO_BUDGET || tools.length <= budget) return { named: [...tools], generic: false };
  return { named: rankTools(tools).slice(0, budget - GENERIC_TOOL_COUNT), generic: true };
}
