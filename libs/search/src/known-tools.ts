import { ENCODER_KNOWN_TOOLS } from './generated/encoder-known-tools';
import type { SearchDocument } from './search-document';

/**
 * The tools the request encoder was trained for, known by a digest of their name and
 * description (`scripts/known-tools.ts` writes the list from the training requests' tools). The
 * encoder is a model of how people ask for those tools: on them its ranking is trusted to re-order
 * confident answers too; on tools it never saw, it is consulted only for doubtful ones
 * (`encoder-merge.ts`).
 */
let known: ReadonlySet<number> | undefined;

/** FNV-1a (32 bits) of a tool's original name and description: what identifies it across servers. */
export function toolDigest(document: Pick<SearchDocument, 'originalName' | 'description'>): number {
  const text = `${document.originalName}\n${document.description.trim()}`;
  let hash = 0x811c9dc5;
  for (let at = 0; at < text.length; at += 1) {
    hash ^= text.charCodeAt(at);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Whether the request encoder was trained for this tool (or a copy of it under another server). */
export function isKnownTool(document: Pick<SearchDocument, 'originalName' | 'description'>): boolean {
  known ??= new Set(
    ENCODER_KNOWN_TOOLS === '' ? [] : ENCODER_KNOWN_TOOLS.split(' ').map((digest) => Number.parseInt(digest, 36)),
  );
  return known.has(toolDigest(document));
}
