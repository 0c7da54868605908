import { describe, expect, it } from 'vitest';
import { backoffDelay, replicaMismatch, RESUME_BACKOFF } from './registry-watch';

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
