import { writeCommand } from '../client/agent-command';

export default writeCommand('DELETE');
