// Runs once before the daemon's tests: Redis and NATS must answer (started locally if needed).
// The same script `npm start` uses (plain ESM, no types), so tests and the run command agree.
/* eslint-disable @nx/enforce-module-boundaries */
// @ts-expect-error -- a plain ESM script shared with `npm start`, without type declarations.
import { ensureServices } from '../../../scripts/ensure-services.mjs';
/* eslint-enable @nx/enforce-module-boundaries */

export default async function setup(): Promise<() => void> {
  const { stop } = await (ensureServices as () => Promise<{ stop: () => void }>)();
  return stop;
}
