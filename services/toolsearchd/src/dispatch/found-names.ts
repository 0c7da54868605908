import type { PlannedStep } from '@toolsearch/bridge';
import type { CallEnvelope } from '@toolsearch/proto';

/** One planned step of a turn with what it returned. */
export interface StepResult {
  readonly step: PlannedStep;
  readonly envelope: CallEnvelope;
}

/**
 * The tools a turn found, by model-facing name, in order: those it described and those that ran
 * and succeeded. A `keep_found` session keeps the newest of them loaded directly (found-tools.ts).
 */
export function foundNames(results: readonly StepResult[]): string[] {
  const names: string[] = [];
  for (const { step, envelope } of results) {
    if (!envelope.ok) continue;
    if (step.kind === 'tool') names.push(step.call.tool.name);
    else if (step.kind === 'lookup' && step.name === 'tool_describe') {
      const tools = (envelope.data as { tools?: Record<string, unknown> } | null)?.tools;
      if (tools !== undefined) names.push(...Object.keys(tools));
    }
  }
  return names;
}
