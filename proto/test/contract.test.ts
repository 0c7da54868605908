import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  contractJsonSchema,
  ENDPOINTS,
  OpenSessionRequestSchema,
  parseSubject,
  subject,
  subjectPattern,
  TenantIdSchema,
} from '../src/index';

describe('the v1 contract', () => {
  it('has a descriptor for every subject of the design', () => {
    const subjects = Object.values(ENDPOINTS).map((endpoint) => endpoint.template);
    for (const expected of [
      'toolsearch.v1.{tenant}.sessions.open',
      'toolsearch.v1.{tenant}.sessions.{session}.assemble',
      'toolsearch.v1.{tenant}.sessions.{session}.search',
      'toolsearch.v1.{tenant}.sessions.{session}.describe',
      'toolsearch.v1.{tenant}.sessions.{session}.dispatch',
      'toolsearch.v1.{tenant}.sessions.{session}.close',
      'toolsearch.v1.{tenant}.subagents.spawn',
      'toolsearch.v1.{tenant}.toolsets.put',
      'toolsearch.v1.{tenant}.toolsets.delete',
      'toolsearch.v1.{tenant}.mcp.attach',
      'toolsearch.v1.{tenant}.mcp.detach',
      'toolsearch.v1.{tenant}.approvals.list',
      'toolsearch.v1.{tenant}.approvals.{id}.decide',
    ]) {
      expect(subjects).toContain(expected);
    }
  });

  it('builds, patterns and parses subjects', () => {
    const template = ENDPOINTS.sessionsSearch.template;
    const concrete = subject(template, { tenant: 'acme', session: 's-abcdefghijklmnopqrstuv' });
    expect(concrete).toBe('toolsearch.v1.acme.sessions.s-abcdefghijklmnopqrstuv.search');
    expect(subjectPattern(template)).toBe('toolsearch.v1.*.sessions.*.search');
    expect(parseSubject(template, concrete)).toEqual({ tenant: 'acme', session: 's-abcdefghijklmnopqrstuv' });
    expect(parseSubject(template, 'toolsearch.v1.acme.sessions.open')).toBeUndefined();
  });

  it('refuses subject tokens that would escape their place', () => {
    expect(() => subject(ENDPOINTS.sessionsOpen.template, { tenant: 'a.b' })).toThrow();
    expect(() => subject(ENDPOINTS.sessionsOpen.template, { tenant: '>' })).toThrow();
  });

  it('validates tenant ids', () => {
    expect(TenantIdSchema.safeParse('acme-1').success).toBe(true);
    for (const bad of ['', 'Acme', '-acme', 'a'.repeat(64), 'a.b', 'a*'])
      expect(TenantIdSchema.safeParse(bad).success).toBe(false);
  });

  it('fills request defaults', () => {
    expect(OpenSessionRequestSchema.parse({ grant: { toolsets: [] }, model: { contextLength: 0 } }).role).toBe(
      'gateway',
    );
  });

  it('publishes the executor contract and the worker job in the JSON Schema too', () => {
    const schema = contractJsonSchema() as {
      exec: { subject: string; request: { required: string[] }; reply: unknown };
      workerJob: { payload: { required: string[] } };
    };
    expect(schema.exec.subject).toBe('toolsearch.v1.{tenant}.exec.{toolset}');
    expect(schema.exec.request.required).toEqual(expect.arrayContaining(['tool', 'arguments']));
    expect(schema.workerJob.payload.required).toEqual(
      expect.arrayContaining(['tenant', 'session', 'parent', 'role', 'grant', 'token']),
    );
  });

  it('publishes an up-to-date JSON Schema (npm run generate -w @toolsearch/proto)', () => {
    const onDisk = readFileSync(new URL('../json-schema/toolsearch-v1.json', import.meta.url), 'utf8');
    expect(onDisk).toBe(`${JSON.stringify(contractJsonSchema(), null, 2)}\n`);
  });
});
