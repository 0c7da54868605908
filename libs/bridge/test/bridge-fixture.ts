import { buildSessionTools, parseToolSearchConfig, type Toolset } from '@toolsearch/catalog';
import { coreToolset, tool, toolset } from '@toolsearch/testing';
import { createBridgeSession, type BridgeSession } from '../src/index';

/** A session over the given toolsets with default settings (or the given raw config). */
export function sessionOf(toolsets: readonly Toolset[], rawConfig: unknown = undefined): BridgeSession {
  const { config } = parseToolSearchConfig(rawConfig);
  return createBridgeSession(buildSessionTools(toolsets, config), config);
}

/** Linear + Slack + the gateway's core tools: the multi-query fixture of the reference, in our words. */
export function issueSession(): BridgeSession {
  return sessionOf([
    toolset('mq-linear', [
      tool('mq_linear_create_issue', 'Create a new issue in a team.', ['title', 'team'], ['title', 'team']),
      tool('mq_linear_list_issues', 'List issues in the workspace.', ['query']),
    ]),
    toolset('mq-slack', [
      tool('mq_slack_post_message', 'Post a message to a channel.', ['channel', 'text'], ['channel', 'text']),
    ]),
    coreToolset(['terminal', 'read_file', 'write_file']),
  ]);
}

/** `count` tool names of 60 characters that share a long run of `a` (hostile to wildcard matching). */
export function longToolNames(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${'a'.repeat(40)}_${i.toString(36)}_${'ab'.repeat(8)}`.slice(0, 60));
}

/** The most tool patterns a routing rule may hold, each with 12–19 stars: `*a*a…*a*b`. */
export function manyStarPatterns(count = 100): string[] {
  return Array.from({ length: count }, (_, i) => `${'*a'.repeat(12 + (i % 8))}*${String.fromCharCode(98 + (i % 24))}`);
}
