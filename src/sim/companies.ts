import type { Api } from '../api/pipeline';
import { halvorsen } from './halvorsen';
import { northgate } from './northgate';
import { seedSmallOrg } from './small-company';
import { emptyWorld, type World } from './world';

export interface CompanyContext {
  api: Api;
  seed: number;
  /** A seeded random stream; streams with different names are independent. */
  random(stream: string): () => number;
  /** Told how far a long build has come: `done` of `total` steps, and what it is on. */
  progress?(done: number, total: number, note: string): void;
}

/**
 * Builds a company's start state through the API and returns its world.json, with a token for every
 * user the simulator or the agent acts as. A task's generator then adds its own planted state.
 */
export type CompanyGenerator = (ctx: CompanyContext) => World;

/** A token secret drawn from a seeded stream: unguessable from the user id, yet reproducible. */
export function seededSecret(random: () => number): string {
  let hex = '';
  for (let i = 0; i < 40; i++) hex += Math.floor(random() * 16).toString(16);
  return `erp_${hex}`;
}

const smallCompany: CompanyGenerator = ({ api, seed, random }) => {
  const tokens = random('tokens');
  const secrets: Record<string, string> = {};
  seedSmallOrg(api, '2026-10-05', (user) => (secrets[user] = seededSecret(tokens)));
  const world = emptyWorld('small-company', seed);
  world.tokens = secrets;
  return world;
};

/** Company generators by the name task.yaml's `company` uses. */
export const COMPANIES: Readonly<Record<string, CompanyGenerator>> = {
  'small-company': smallCompany,
  northgate,
  halvorsen,
};
