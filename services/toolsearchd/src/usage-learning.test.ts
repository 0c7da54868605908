import { describe, expect, it } from 'vitest';
import type { PlannedStep } from '@toolsearch/bridge';
import type { CallEnvelope } from '@toolsearch/proto';
import type { StepResult } from './dispatch/found-names';
import { LearnFromUseSchema, UsageLearning } from './usage-learning';

const search = (query: string, matches: string[]) => ({ results: [{ query, matches }] });

function learning(overrides: Record<string, unknown> = {}, tenants = ['t1', 't2']) {
  let now = 1_000_000;
  const usage = new UsageLearning({
    settings: LearnFromUseSchema.parse(overrides),
    tenants,
    now: () => now,
  });
  return {
    usage,
    advance: (ms: number) => {
      now += ms;
    },
    boost: (tenant: string, query: string, tool: string) =>
      usage.signal(tenant)?.boosts.boosts(query, now).get(tool) ?? 0,
  };
}

describe('UsageLearning', () => {
  it('credits a successful call of a tool the last search returned to that search', () => {
    const { usage, boost } = learning();
    usage.noteSearch('t1', 's1', search('deploy the site', ['ci_run', 'ci_cancel']));
    usage.noteCalled('t1', 's1', 'ci_cancel');
    expect(boost('t1', 'deploy', 'ci_cancel')).toBeGreaterThan(0);
    expect(boost('t1', 'deploy', 'ci_run')).toBe(0);
  });

  it('credits nothing for a tool the search did not return, and each tool once per search', () => {
    const { usage, boost } = learning();
    usage.noteSearch('t1', 's1', search('deploy', ['ci_run']));
    usage.noteCalled('t1', 's1', 'weather');
    expect(boost('t1', 'deploy', 'weather')).toBe(0);
    usage.noteCalled('t1', 's1', 'ci_run');
    const once = boost('t1', 'deploy', 'ci_run');
    usage.noteCalled('t1', 's1', 'ci_run');
    expect(boost('t1', 'deploy', 'ci_run')).toBe(once);
    usage.noteSearch('t1', 's1', search('deploy', ['ci_run']));
    usage.noteCalled('t1', 's1', 'ci_run');
    expect(boost('t1', 'deploy', 'ci_run')).toBeGreaterThan(once);
  });

  it('credits nothing when the call comes after searchMemoryMs', () => {
    const { usage, advance, boost } = learning({ searchMemoryMs: 1000 });
    usage.noteSearch('t1', 's1', search('deploy', ['ci_run']));
    advance(1001);
    usage.noteCalled('t1', 's1', 'ci_run');
    expect(boost('t1', 'deploy', 'ci_run')).toBe(0);
    expect(usage.rememberedSessions).toBe(0);
  });

  it('keeps tenants apart, and learns nothing for a tenant that did not opt in', () => {
    const { usage, boost } = learning();
    usage.noteSearch('t1', 's1', search('deploy', ['ci_run']));
    usage.noteCalled('t1', 's1', 'ci_run');
    // The same session id under another tenant is another session.
    usage.noteCalled('t2', 's1', 'ci_run');
    expect(boost('t2', 'deploy', 'ci_run')).toBe(0);
    usage.noteSearch('t3', 's1', search('deploy', ['ci_run']));
    usage.noteCalled('t3', 's1', 'ci_run');
    expect(usage.signal('t3')).toBeUndefined();
    expect(usage.rememberedSessions).toBe(1);
  });

  it('remembers at most maxSessions searches; past it the largest tenant gives way, oldest first', () => {
    const { usage, boost } = learning({ maxSessions: 100 });
    usage.noteSearch('t2', 'quiet', search('deploy', ['ci_run']));
    for (let i = 0; i < 20_000; i += 1) usage.noteSearch('t1', `s${i}`, search('deploy', ['ci_run']));
    // t1's flood never pushes out t2's one search; t1 keeps the rest, its newest.
    expect(usage.rememberedSessions).toBe(100);
    usage.noteCalled('t2', 'quiet', 'ci_run');
    expect(boost('t2', 'deploy', 'ci_run')).toBeGreaterThan(0);
    usage.noteCalled('t1', 's0', 'ci_run');
    expect(boost('t1', 'deploy', 'ci_run')).toBe(0);
    usage.noteCalled('t1', 's19999', 'ci_run');
    expect(boost('t1', 'deploy', 'ci_run')).toBeGreaterThan(0);
  });

  it('drops expired searches as new ones come, and a closed session’s at once', () => {
    const { usage, advance } = learning({ searchMemoryMs: 1000 });
    for (let i = 0; i < 50; i += 1) usage.noteSearch('t1', `s${i}`, search('deploy', ['ci_run']));
    advance(2000);
    usage.noteSearch('t1', 'fresh', search('deploy', ['ci_run']));
    expect(usage.rememberedSessions).toBe(1);
    usage.forget('t1', 'fresh');
    expect(usage.rememberedSessions).toBe(0);
  });

  it('remembers nothing of a search that found nothing', () => {
    const { usage } = learning();
    usage.noteSearch('t1', 's1', search('deploy', []));
    usage.noteSearch('t1', 's2', { not: 'a search result' });
    expect(usage.rememberedSessions).toBe(0);
  });

  it('reads a turn in order: a search then a successful call of its hit learns; a failed call does not', () => {
    const { usage, boost } = learning();
    const ok = (data: unknown): CallEnvelope => ({ ok: true, data, error: null, status: 'done' });
    const failed: CallEnvelope = {
      ok: false,
      data: null,
      error: { code: 'TOOL_ERROR', message: 'no' },
      status: 'done',
    };
    const lookup = { kind: 'lookup', name: 'tool_search', callId: 'c1', arguments: {} } as unknown as PlannedStep;
    const tool = (name: string) =>
      ({ kind: 'tool', callId: 'c2', call: { tool: { name }, arguments: {} } }) as unknown as PlannedStep;
    const turn: StepResult[] = [
      { step: lookup, envelope: ok(search('deploy', ['ci_run', 'ci_cancel'])) },
      { step: tool('ci_cancel'), envelope: failed },
      { step: tool('ci_run'), envelope: ok({}) },
    ];
    usage.noteTurn('t1', 's1', turn);
    expect(boost('t1', 'deploy', 'ci_run')).toBeGreaterThan(0);
    expect(boost('t1', 'deploy', 'ci_cancel')).toBe(0);
  });

  it('keeps one busy session cheap among 20,000 remembered, and its newest search is the one credited', () => {
    const { usage, boost } = learning({ maxSessions: 30_000 });
    for (let i = 0; i < 20_000; i += 1) usage.noteSearch('t1', `s${i}`, search('deploy', ['ci_run']));
    const timeOf = (searches: number) => {
      const started = performance.now();
      for (let i = 0; i < searches; i += 1) usage.noteSearch('t1', 'busy', search('weather', ['forecast']));
      return (performance.now() - started) / searches;
    };
    // Re-adding the session's Map key on every search cost 15 µs a search at first and 45 – 85 µs
    // after 20,000 – 40,000 (V8 keeps a deleted entry in its key's bucket until the table is
    // rebuilt); a list linked through the entries costs 1.5 – 5 µs, search parsing included.
    const slowest = Math.max(timeOf(20_000), timeOf(20_000), timeOf(20_000));
    expect(slowest * 1000).toBeLessThan(30);
    expect(usage.rememberedSessions).toBe(20_001);
    usage.noteSearch('t1', 'busy', search('deploy', ['ci_run']));
    usage.noteCalled('t1', 'busy', 'forecast');
    expect(boost('t1', 'weather', 'forecast')).toBe(0);
  });
});
