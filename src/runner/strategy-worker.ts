import { serveUnit } from './pool';
import { runStrategyUnit } from './strategy-unit';

/** A strategy-matrix worker process: one family and seed's cells (see serveUnit). */
serveUnit(runStrategyUnit);
