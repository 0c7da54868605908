import type { CallEnvelope } from '@toolsearch/proto';
import type { ExecOutcome } from './executors.adapter';

interface TextPart {
  readonly type: 'text';
  readonly text: string;
}

function isTextPart(part: unknown): part is TextPart {
  return (
    typeof part === 'object' &&
    part !== null &&
    (part as { type?: unknown }).type === 'text' &&
    typeof (part as { text?: unknown }).text === 'string'
  );
}

/**
 * The failed tool's data without the text its error message already says. An MCP tool that
 * reports `isError` has its text in both places (the message, so every client sees why; the
 * content, as the tool sent it), and a client that shows both (the MCP front door prints the
 * message, then the content) said it twice: "TOOL_ERROR: X", then "X". Everything else the tool
 * sent stays: other text, images, structured content.
 */
export function withoutRepeatedText(data: unknown, message: string): unknown {
  if (typeof data !== 'object' || data === null) return data;
  const content = (data as { content?: unknown }).content;
  if (!Array.isArray(content)) return data;
  const kept = content.filter((part: unknown) => !(isTextPart(part) && message.includes(part.text)));
  return kept.length === content.length ? data : { ...data, content: kept };
}

/** The envelope of what running a tool gave; a failure's text is said once. */
export function execEnvelope(outcome: ExecOutcome): CallEnvelope {
  if (outcome.ok) return { ok: true as const, data: outcome.data, error: null, status: 'done' };
  const { code, message } = outcome.error;
  return {
    ok: false,
    data: withoutRepeatedText(outcome.data ?? null, message),
    error: { code, message },
    status: 'done',
  };
}
