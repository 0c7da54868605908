import { afterEach, describe, expect, it, vi } from 'vitest';
import { HeldRefusals } from './held-refusals';

describe('HeldRefusals', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("holds a tenant's refusals until its window turns, then sends them together", () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    const held = new HeldRefusals<string>({ send: (item) => sent.push(item) });
    held.hold('a', 'a1', 200);
    vi.advanceTimersByTime(100);
    // A later refusal of the same window goes with the first, whatever it is told.
    held.hold('a', 'a2', 150);
    held.hold('b', 'b1', 50);
    // No refusal waits longer than 250 ms, however far off the window's end.
    held.hold('c', 'c1', 900);
    expect(sent).toEqual([]);
    expect(held.size).toBe(4);
    vi.advanceTimersByTime(50);
    expect(sent).toEqual(['b1']);
    vi.advanceTimersByTime(50);
    expect(sent).toEqual(['b1', 'a1', 'a2']);
    vi.advanceTimersByTime(149);
    expect(sent).toEqual(['b1', 'a1', 'a2']);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(['b1', 'a1', 'a2', 'c1']);
    expect(held.size).toBe(0);
  });

  it('answers at once past the per-tenant and the total bounds, and when told not to wait', () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    const held = new HeldRefusals<string>({ send: (item) => sent.push(item), perTenant: 2, total: 3 });
    for (const item of ['a1', 'a2', 'a3']) held.hold('a', item, 500);
    expect(sent).toEqual(['a3']);
    held.hold('b', 'b1', 500);
    held.hold('c', 'c1', 500);
    expect(sent).toEqual(['a3', 'c1']);
    held.hold('d', 'd1', 0);
    expect(sent).toEqual(['a3', 'c1', 'd1']);
    // Stopping sends what is still held, once.
    held.flush();
    expect([...sent].sort()).toEqual(['a1', 'a2', 'a3', 'b1', 'c1', 'd1']);
    expect(held.size).toBe(0);
    vi.advanceTimersByTime(1_000);
    expect(sent).toHaveLength(6);
    // A tenant is held again after its batch left.
    held.hold('a', 'a4', 100);
    expect(sent).toHaveLength(6);
    vi.advanceTimersByTime(100);
    expect(sent.at(-1)).toBe('a4');
  });

  it('once closed, sends what it holds and holds nothing more (a stopping daemon still refuses requests in flight)', () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    const held = new HeldRefusals<string>({ send: (item) => sent.push(item) });
    held.hold('a', 'a1', 200);
    held.close();
    expect(sent).toEqual(['a1']);
    held.hold('a', 'a2', 200);
    expect(sent).toEqual(['a1', 'a2']);
    expect(held.size).toBe(0);
  });
});
