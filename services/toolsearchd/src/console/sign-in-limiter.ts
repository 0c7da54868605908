import { ConsoleError } from './console-errors';

/** Failed sign-ins one address may make for one tenant within the window, on one replica. */
const MAX_FAILURES = 20;
const WINDOW_MS = 60_000;
/** Addresses remembered at most (the oldest is forgotten first), so a flood cannot grow the map. */
const MAX_ENTRIES = 10_000;

/**
 * Slows down guessing keys: after 20 failed sign-ins from one address for one tenant within a
 * minute, that address's sign-ins to that tenant are refused (429) until the minute has passed,
 * right keys included (or the refusal would tell a guesser when it found one). Keys are 256-bit
 * random, so this is insurance, not the defence; behind a proxy every client shares its address.
 */
export class SignInLimiter {
  readonly #failures = new Map<string, number[]>();

  /** TOO_MANY_ATTEMPTS when `who` has failed too often lately. */
  check(who: string, now = Date.now()): void {
    const recent = this.#recent(who, now);
    if (recent.length >= MAX_FAILURES)
      throw new ConsoleError(
        'TOO_MANY_ATTEMPTS',
        'too many failed sign-ins from this address for this tenant; wait a minute and try again.',
      );
  }

  /** Notes one failed sign-in of `who`. */
  fail(who: string, now = Date.now()): void {
    const recent = this.#recent(who, now);
    recent.push(now);
    this.#failures.delete(who);
    this.#failures.set(who, recent.slice(-MAX_FAILURES));
    if (this.#failures.size > MAX_ENTRIES) {
      const oldest = this.#failures.keys().next();
      if (oldest.done !== true) this.#failures.delete(oldest.value);
    }
  }

  #recent(who: string, now: number): number[] {
    return (this.#failures.get(who) ?? []).filter((at) => now - at < WINDOW_MS);
  }
}
