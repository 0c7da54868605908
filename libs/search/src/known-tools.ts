import { ENCODER_KNOWN_TOOLS } from './generated/encoder-known-tools';
import { THIN_PUBLIC_TOOLS } from './generated/thin-public-tools';
import type { SearchDocument } from './search-document';

/**
 * The tools the training requests were written for (`training/synthetic-requests.jsonl`), known by
 * a digest of their name and description (`scripts/known-tools.ts` writes the list). The request
 * encoder was trained on those requests, and the example requests (`example-requests.ts`) are
 * them: on these tools both are trusted to re-order confident answers too; on tools they never
 * saw, the encoder is consulted only for doubtful answers (`encoder-merge.ts`) and the examples
 * not at all.
 */
export interface KnownToolSlots {
  /** How many tools are known. */
  readonly size: number;
  /** FNV-1a of the generated list: what the example requests were written against. */
  readonly digest: number;
  /** A known tool's place in the list (ascending digests), or −1. */
  slotOf(toolDigest: number): number;
}
let slots: KnownToolSlots | undefined;

/** FNV-1a (32 bits) of a text. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let at = 0; at < text.length; at += 1) {
    hash ^= text.charCodeAt(at);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** FNV-1a (32 bits) of a tool's original name and description: what identifies it across servers. */
export function toolDigest(document: Pick<SearchDocument, 'originalName' | 'description'>): number {
  return fnv1a(`${document.originalName}\n${document.description.trim()}`);
}

/** The place of `value` in an ascending list of 32-bit numbers (binary search), or −1. */
export function placeIn(sorted: Uint32Array, value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const at = sorted[middle] as number;
    if (at === value) return middle;
    if (at < value) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** The known tools' places, parsed once per process (a sorted array searched by halves). */
export function knownToolSlots(): KnownToolSlots {
  if (slots !== undefined) return slots;
  const sorted = Uint32Array.from(
    ENCODER_KNOWN_TOOLS === '' ? [] : ENCODER_KNOWN_TOOLS.split(' ').map((digest) => Number.parseInt(digest, 36)),
  );
  slots = {
    size: sorted.length,
    digest: fnv1a(ENCODER_KNOWN_TOOLS),
    slotOf: (digest) => placeIn(sorted, digest),
  };
  return slots;
}

/**
 * Per document of a catalog, its place in the known-tools list, or −1 when the training requests
 * were not written for it: computed once per engine and shared by the encoder and the examples
 * (about 4 ms for 6,685 tools).
 */
export function knownSlotsOf(documents: readonly Pick<SearchDocument, 'originalName' | 'description'>[]): Int32Array {
  const known = knownToolSlots();
  return Int32Array.from(documents, (document) => known.slotOf(toolDigest(document)));
}

/** Whether the training requests were written for this tool (or a copy of it under another server). */
export function isKnownTool(document: Pick<SearchDocument, 'originalName' | 'description'>): boolean {
  return knownToolSlots().slotOf(toolDigest(document)) >= 0;
}

let thin: Uint32Array | undefined;

/**
 * FNV-1a (32 bits) of a thinly described public tool: its server's label, original name and
 * description. The label is part of it (unlike `toolDigest`) because such a tool's name and
 * description alone are often generic ("add", "search", no description at all): a tenant's own tool
 * named alike must not pass for it.
 */
export function thinToolDigest(document: Pick<SearchDocument, 'label' | 'originalName' | 'description'>): number {
  return fnv1a(`${document.label}\n${document.originalName}\n${document.description.trim()}`);
}

/**
 * Whether a tool is one of the public union catalogs' tools that the training requests were not
 * written for (a description too thin), by `thinToolDigest`, the list parsed once per process. With
 * the known tools, these are every tool the requests no tool serves were checked against
 * (`training/no-capability-requests.jsonl`); a tenant's own tool is neither, and a public one under
 * another label counts as a tenant's (the safe side: it keeps "nothing fits" out).
 */
export function isThinPublicTool(document: Pick<SearchDocument, 'label' | 'originalName' | 'description'>): boolean {
  thin ??= Uint32Array.from(
    THIN_PUBLIC_TOOLS === '' ? [] : THIN_PUBLIC_TOOLS.split(' ').map((digest) => Number.parseInt(digest, 36)),
  );
  return placeIn(thin, thinToolDigest(document)) >= 0;
}
