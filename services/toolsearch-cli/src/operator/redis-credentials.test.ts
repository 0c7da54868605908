import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newRedisPassword, parseAclFile, passwordHash, redisAclUsers, RedisAclError } from './redis-acl';
import { mergeEnvFile, passwordVariable, planRedisCredentials } from './redis-credentials';

/** Predictable passwords, so a plan can be compared line by line. */
function counter(): () => string {
  let next = 0;
  return () => `pw-${++next}`;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('redisAclUsers', () => {
  it('limits the daemon to its prefix and each worker to its tenant worker queues', () => {
    const users = redisAclUsers('toolsearch:', ['acme', 'globex']);
    expect(users.map((user) => [user.name, user.keys])).toEqual([
      ['toolsearchd', 'toolsearch:*'],
      ['worker-acme', 'toolsearch:{acme}:w:*'],
      ['worker-globex', 'toolsearch:{globex}:w:*'],
    ]);
    expect(users[0]?.commands).toBe('+@all -@dangerous +info');
    // A worker starts from nothing, gets data and script commands, and cannot list key names.
    expect(users[1]?.commands).toMatch(
      /^-@all .*-@dangerous .*-scan .*-randomkey .*-dbsize .*\+info \+cluster\|slots \+cluster\|info$/,
    );
  });

  it('refuses a prefix with glob characters and names that are not tenant ids', () => {
    expect(() => redisAclUsers('toolsearch*', ['acme'])).toThrow(RedisAclError);
    expect(() => redisAclUsers('toolsearch:', ['Acme'])).toThrow(expect.objectContaining({ code: 'BAD_TENANT' }));
    expect(() => redisAclUsers('toolsearch:', ['a:b'])).toThrow(expect.objectContaining({ code: 'BAD_TENANT' }));
  });
});

describe('passwords', () => {
  it('are 32 random bytes, different every time, kept as #sha256', () => {
    const [one, two] = [newRedisPassword(), newRedisPassword()];
    expect(one).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(one).not.toBe(two);
    expect(passwordHash('secret')).toBe(`#${sha('secret')}`);
  });
});

describe('planRedisCredentials', () => {
  it('writes the default user off, then the daemon and one worker per tenant, with hashes only', () => {
    const plan = planRedisCredentials({ prefix: 'p:', tenants: ['acme', 'acme'], generate: counter() });
    const lines = plan.aclFile.trimEnd().split('\n');
    expect(lines[0]).toBe('user default off resetkeys resetchannels -@all');
    expect(lines[1]).toBe(`user toolsearchd on #${sha('pw-1')} resetkeys resetchannels ~p:* +@all -@dangerous +info`);
    expect(lines[2]).toMatch(
      new RegExp(`^user worker-acme on #${sha('pw-2')} resetkeys resetchannels ~p:{acme}:w:\\* -@all `),
    );
    expect(lines).toHaveLength(3);
    expect(plan.aclFile).not.toContain('pw-');
    expect(plan.users.map((user) => [user.name, user.status, user.password])).toEqual([
      ['toolsearchd', 'new', 'pw-1'],
      ['worker-acme', 'new', 'pw-2'],
    ]);
  });

  it('keeps the passwords of users that stay, removes workers of tenants no longer listed, keeps other users', () => {
    const first = planRedisCredentials({ prefix: 'p:', tenants: ['acme', 'globex'], generate: counter() });
    const previous = `${first.aclFile}user admin on #${sha('admin')} ~* &* +@all\n`;
    const next = planRedisCredentials({
      prefix: 'p:',
      tenants: ['acme', 'initech'],
      previous,
      generate: () => 'fresh',
    });
    expect(next.users.map((user) => [user.name, user.status, user.password])).toEqual([
      ['toolsearchd', 'kept', undefined],
      ['worker-acme', 'kept', undefined],
      ['worker-initech', 'new', 'fresh'],
    ]);
    expect(next.removed).toEqual([{ name: 'worker-globex', variable: 'TOOLSEARCH_WORKER_REDIS_PASSWORD_GLOBEX' }]);
    const users = parseAclFile(next.aclFile);
    expect(users.get('worker-acme')?.hashes).toEqual([`#${sha('pw-2')}`]);
    expect(users.has('worker-globex')).toBe(false);
    expect(users.get('admin')?.line).toBe(`user admin on #${sha('admin')} ~* &* +@all`);
  });

  it('gives every managed user a new password when asked to rotate', () => {
    const first = planRedisCredentials({ prefix: 'p:', tenants: ['acme'], generate: counter() });
    const next = planRedisCredentials({ prefix: 'p:', tenants: ['acme'], previous: first.aclFile, rotate: true });
    expect(next.users.map((user) => user.status)).toEqual(['rotated', 'rotated']);
    expect(next.aclFile).not.toContain(sha('pw-1'));
  });

  it('refuses a previous file Redis itself would refuse', () => {
    expect(() => planRedisCredentials({ prefix: 'p:', tenants: [], previous: '# a comment\n' })).toThrow(
      expect.objectContaining({ code: 'BAD_ACL_FILE' }),
    );
  });
});

describe('mergeEnvFile', () => {
  it('replaces and removes its keys and leaves every other line where it was', () => {
    const previous = '# deployment secrets\nTOOLSEARCH_NATS_PASSWORD=n\nTOOLSEARCH_REDIS_PASSWORD=old\nGONE=x\n';
    expect(mergeEnvFile(previous, { TOOLSEARCH_REDIS_PASSWORD: 'new', ADDED: 'a' }, ['GONE'])).toBe(
      '# deployment secrets\nTOOLSEARCH_NATS_PASSWORD=n\nTOOLSEARCH_REDIS_PASSWORD=new\nADDED=a\n',
    );
    expect(mergeEnvFile(undefined, { A: '1' })).toBe('A=1\n');
  });

  it('names worker passwords after the tenant, upper case with _ for -', () => {
    expect(passwordVariable('toolsearchd')).toBe('TOOLSEARCH_REDIS_PASSWORD');
    expect(passwordVariable('worker-acme-eu')).toBe('TOOLSEARCH_WORKER_REDIS_PASSWORD_ACME_EU');
  });
});

describe('planRedisCredentials with replication', () => {
  it('adds a replica user limited to the replication stream and a sentinel user with no key', () => {
    let next = 0;
    const plan = planRedisCredentials({
      prefix: 'p:',
      tenants: ['acme'],
      replication: true,
      generate: () => `pw-${++next}`,
    });
    const lines = plan.aclFile.trimEnd().split('\n');
    expect(plan.users.map((user) => [user.name, user.variable])).toEqual([
      ['toolsearchd', 'TOOLSEARCH_REDIS_PASSWORD'],
      ['worker-acme', 'TOOLSEARCH_WORKER_REDIS_PASSWORD_ACME'],
      ['replica', 'TOOLSEARCH_REDIS_REPLICA_PASSWORD'],
      ['sentinel', 'TOOLSEARCH_REDIS_SENTINEL_AUTH_PASSWORD'],
    ]);
    expect(lines[3]).toBe(`user replica on #${sha('pw-3')} resetkeys resetchannels -@all +psync +replconf +ping`);
    expect(lines[4]).toMatch(new RegExp(`^user sentinel on #${sha('pw-4')} resetkeys resetchannels &\\* -@all `));
    expect(lines[4]).not.toContain('~');
    expect(planRedisCredentials({ prefix: 'p:', tenants: ['acme'] }).users.map((user) => user.name)).toEqual([
      'toolsearchd',
      'worker-acme',
    ]);
  });
});
