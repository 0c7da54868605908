import { describe, expect, it } from 'vitest';
import { ConsoleError } from './console-errors';
import { SignInLimiter } from './sign-in-limiter';

describe('SignInLimiter', () => {
  it('refuses an address and tenant after 20 failures within a minute, and lets it in again after', () => {
    const limiter = new SignInLimiter();
    const start = 1_000_000;
    for (let i = 0; i < 19; i += 1) limiter.fail('10.0.0.1/acme', start + i);
    expect(() => limiter.check('10.0.0.1/acme', start + 100)).not.toThrow();
    limiter.fail('10.0.0.1/acme', start + 100);
    expect(() => limiter.check('10.0.0.1/acme', start + 200)).toThrow(ConsoleError);
    // Another tenant from the same address, and the same tenant from another address, are not held.
    expect(() => limiter.check('10.0.0.1/globex', start + 200)).not.toThrow();
    expect(() => limiter.check('10.0.0.2/acme', start + 200)).not.toThrow();
    expect(() => limiter.check('10.0.0.1/acme', start + 60_200)).not.toThrow();
  });
});
