// Runs once before the daemon's tests. Unless TOOLSEARCH_NATS_URL / TOOLSEARCH_REDIS_URL name
// servers to use, the run gets a NATS (JetStream) and a Redis of its own on free loopback ports, so
// no other deployment or test run on the machine answers its requests (every daemon serves the
// same subjects) and it answers nobody else's. The test workers inherit the two URLs.
// Tests that start a daemon or CLI process run the compiled bundles, as deployments do: they are
// rebuilt here first when missing or older than their sources (about a second; nothing when fresh).
/* eslint-disable @nx/enforce-module-boundaries */
// @ts-expect-error -- a plain ESM script shared with `npm start`, without type declarations.
import { ensureServices, startPrivateServices } from '../../../scripts/ensure-services.mjs';
// @ts-expect-error -- the same, for the build script.
import { ensureBuilt } from '../../../scripts/build.mjs';
/* eslint-enable @nx/enforce-module-boundaries */

type Services = { stop: () => void };

export default async function setup(): Promise<() => void> {
  await (ensureBuilt as () => Promise<string[]>)();
  if (process.env['TOOLSEARCH_NATS_URL'] !== undefined || process.env['TOOLSEARCH_REDIS_URL'] !== undefined) {
    const { stop } = await (ensureServices as () => Promise<Services>)();
    return stop;
  }
  const services = await (startPrivateServices as () => Promise<Services & { natsUrl: string; redisUrl: string }>)();
  process.env['TOOLSEARCH_NATS_URL'] = services.natsUrl;
  process.env['TOOLSEARCH_REDIS_URL'] = services.redisUrl;
  return () => {
    services.stop();
    delete process.env['TOOLSEARCH_NATS_URL'];
    delete process.env['TOOLSEARCH_REDIS_URL'];
  };
}
