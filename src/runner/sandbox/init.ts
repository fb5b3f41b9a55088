/**
 * The first program of a sandboxed turn, run by the sandbox's node (node builtins only): it opens
 * the turn's forwarders, each a loopback port inside the turn's network namespace passed on to a
 * unix socket the runner bound in (the agent port, the model proxy), then runs the agent's command
 * and exits as it did. It ignores SIGTERM: the budget's SIGTERM is for the agent's command, which
 * shares its process group; when the command ends, the turn ends.
 *
 * argv: a JSON array of {port, socket}, then the command and its arguments.
 */
import { spawn } from 'node:child_process';
import { createServer, connect, type Socket } from 'node:net';
import { constants } from 'node:os';

interface Forward { port: number; socket: string }

function pipeBoth(a: Socket, b: Socket): void {
  a.on('error', () => b.destroy());
  b.on('error', () => a.destroy());
  a.pipe(b).pipe(a);
}

function forward(f: Forward): Promise<void> {
  return new Promise((resolve, reject) => {
    // Half-open both ways: a client that ends its request first still gets the whole response.
    const server = createServer({ allowHalfOpen: true }, (client) => pipeBoth(client, connect({ path: f.socket, allowHalfOpen: true })));
    server.once('error', reject);
    server.listen(f.port, '127.0.0.1', () => resolve());
  });
}

async function main(): Promise<void> {
  process.on('SIGTERM', () => undefined);
  const [spec, command, ...args] = process.argv.slice(2);
  if (!spec || !command) throw new Error('usage: init FORWARDS_JSON COMMAND [ARGS...]');
  await Promise.all((JSON.parse(spec) as Forward[]).map(forward));
  const child = spawn(command, args, { stdio: 'inherit' });
  child.on('error', (err) => {
    process.stderr.write(`sandbox: ${err.message}\n`);
    process.exit(127);
  });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0)));
}

main().catch((err: Error) => {
  process.stderr.write(`sandbox: ${err.message}\n`);
  process.exit(125);
});
