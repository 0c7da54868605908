import { describe, expect, it } from 'vitest';
import { backoffDelay, replicaMismatch, RESUME_BACKOFF, StallDetector } from './registry-watch';

describe('backoffDelay', () => {
  it('doubles from the initial delay and stays within the upper half of each step', () => {
    expect(backoffDelay(0, RESUME_BACKOFF, () => 0)).toBe(125);
    expect(backoffDelay(0, RESUME_BACKOFF, () => 1)).toBe(250);
    expect(backoffDelay(2, RESUME_BACKOFF, () => 0)).toBe(500);
    expect(backoffDelay(2, RESUME_BACKOFF, () => 1)).toBe(1000);
  });

  it('is capped at maxMs however many attempts failed', () => {
    expect(backoffDelay(50, RESUME_BACKOFF, () => 1)).toBe(RESUME_BACKOFF.maxMs);
    expect(backoffDelay(1000, RESUME_BACKOFF, () => 0)).toBe(RESUME_BACKOFF.maxMs / 2);
  });
});

describe('replicaMismatch', () => {
  it('names the command that changes the replicas when the bucket has others than configured', () => {
    expect(replicaMismatch('toolsets', 3, 3)).toBeUndefined();
    expect(replicaMismatch('toolsets', 3, 1)).toContain('nats stream edit KV_toolsets --replicas 3');
  });
});

describe('StallDetector', () => {
  it('resumes a watch that is behind the stream and delivered nothing since the last check', () => {
    const stalls = new StallDetector();
    expect(stalls.check(10, 10)).toBe(false); // caught up
    expect(stalls.check(10, 11)).toBe(false); // a write just now: its echo may be in flight
    expect(stalls.check(11, 12)).toBe(false); // behind, but moving
    expect(stalls.check(11, 12)).toBe(true); // behind at the last check and idle since
  });

  it('leaves a watch that is caught up alone, however long it is idle', () => {
    const stalls = new StallDetector();
    for (let check = 0; check < 5; check++) expect(stalls.check(7, 7)).toBe(false);
  });

  it('resumes once per missing revision: an entry the stream removed is not chased forever', () => {
    const stalls = new StallDetector();
    stalls.check(5, 6);
    expect(stalls.check(5, 6)).toBe(true);
    // The resumed watch still does not deliver 6: it is not in the stream any more.
    expect(stalls.check(5, 6)).toBe(false);
    expect(stalls.check(5, 6)).toBe(false);
    // A newer write the watch does not deliver either is another stall.
    expect(stalls.check(5, 7)).toBe(true);
  });
});
