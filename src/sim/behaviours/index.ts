// Importing a behaviour module registers it with the simulator (src/sim/behaviour-registry.ts).
import './approvers';
import './vendors';
import './warehouse';
import './payables';
import './sales';
