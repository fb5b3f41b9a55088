import { advanceTo } from '../../src/api/control-app';
import type { Api } from '../../src/api/pipeline';
import { createSimulator } from '../../src/sim/simulator';
import { emptyWorld, type World } from '../../src/sim/world';
import { ok } from './books-fixture';
import { issueToken, systemCall } from './erp';
import { purchasingCompany } from './purchasing-fixture';

/**
 * The purchasing company with a world for the simulator: every user's token, Dan Kim (operations
 * director, requisitions up to $50,000) as a second approver, and the actor profiles given.
 */
export function simulatedCompany(actors: World['actors'] = {}) {
  const company = purchasingCompany();
  const { api, tokens } = company;
  ok(systemCall(api, 'POST', '/roles', { id: 'director', name: 'Director', permissions: ['requisition.approve'] }), 'role');
  ok(systemCall(api, 'POST', '/users', { id: 'dan.kim', name: 'Dan Kim', email: 'dan.kim@northgate.example', department: 'OPS', roles: ['director'] }), 'dan');
  ok(systemCall(api, 'POST', '/approval-limits', { subject_type: 'role', subject: 'director', document_type: 'requisition', amount: 50000 }), 'limit');
  const world = emptyWorld('purchasing-test', 0);
  const users: Record<string, string> = {
    'grace.lin': tokens.grace, 'maya.chen': tokens.maya, 'sam.ortiz': tokens.sam, 'tom.reyes': tokens.tom, 'rita.vance': tokens.rita,
    'sim.vendors': tokens.vendor, 'dan.kim': issueToken(api, 'dan.kim'),
  };
  world.users = Object.keys(users).sort();
  world.actors = actors;
  const day = createSimulator(world, users);
  return { ...company, world, dan: users['dan.kim']!, advance: (to: string) => advanceTo(api, to, day) };
}

/** The approval request a requisition now waits on, with its assignee and status. */
export function currentRequest(api: Api, requisition: string) {
  const history = api.read.requisitions.approvalHistory('requisition', requisition);
  return history[history.length - 1]!;
}
