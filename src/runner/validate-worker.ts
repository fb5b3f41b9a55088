import { serveUnit } from './pool';
import { validateUnit } from './validate-unit';

/** A validator worker process: one task and seed's controls (see serveUnit). */
serveUnit(validateUnit);
