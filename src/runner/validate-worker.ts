import { startOperatorProcess } from '../operator-start';

startOperatorProcess();
// Required after the start, so that they load from the code cache and the operator bundle.
const { serveUnit } = require('./pool') as typeof import('./pool');
const { validateUnit } = require('./validate-unit') as typeof import('./validate-unit');

/** A validator worker process: one task and seed's controls (see serveUnit). */
serveUnit(validateUnit);
