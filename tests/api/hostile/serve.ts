/**
 * The test app on a real port, in a process of its own, for tests that need real sockets (an
 * upload whose client disconnects): an unhandled error then ends this process, not the test
 * runner. Prints one JSON line `{ "port": <port>, "pid": <pid> }` when it listens; SIGTERM closes
 * the app and drops its database. Engine and folders come from the environment, as in the harness.
 */
import { createTestApp } from '../harness.ts';

const t = await createTestApp();
await t.app.listen({ port: 0, host: '127.0.0.1' });
const address = t.app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(`${JSON.stringify({ port, pid: process.pid })}\n`);

let closing = false;
process.on('SIGTERM', () => {
  if (closing) return;
  closing = true;
  t.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
