import type { Api } from '../api/pipeline';
import { halvorsen } from './halvorsen';
import { northgate, northgateSeptemberOpen } from './northgate';
import { newSecret } from './credentials';
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
 * Builds a company's start state through the API and returns its world.json, naming every user the
 * simulator or the agent acts as. A task's generator then adds its own planted state.
 */
export type CompanyGenerator = (ctx: CompanyContext) => World;

const smallCompany: CompanyGenerator = ({ api, seed }) => {
  const users: string[] = [];
  seedSmallOrg(api, '2026-10-05', (user) => (users.push(user), newSecret()));
  const world = emptyWorld('small-company', seed);
  world.users = users.sort();
  return world;
};

/** Company generators by the name task.yaml's `company` uses. */
export const COMPANIES: Readonly<Record<string, CompanyGenerator>> = {
  'small-company': smallCompany,
  northgate,
  'northgate-september-open': northgateSeptemberOpen,
  halvorsen,
};
