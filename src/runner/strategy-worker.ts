import { startOperatorProcess } from '../operator-start';

startOperatorProcess();
// Required after the start, so that they load from the code cache and the operator bundle.
const { serveUnit } = require('./pool') as typeof import('./pool');
const { runStrategyUnit } = require('./strategy-unit') as typeof import('./strategy-unit');

/** A strategy-matrix worker process: one family and seed's cells (see serveUnit). */
serveUnit(runStrategyUnit);
