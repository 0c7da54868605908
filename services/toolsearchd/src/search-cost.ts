import type { SearchEngine } from '@toolsearch/search';
import { encoderScanWeight } from './request-weights';

/**
 * Runs a search on `engine` and charges what it cost beyond its request's weight: the request
 * encoder's scans of the catalog (`encoderScanWeight` each). Searches run synchronously, so the
 * engine's scan count differs before and after by this search's scans alone.
 */
export function searchCharged<T>(
  engine: Pick<SearchEngine, 'encoderScans' | 'size'>,
  charge: ((weight: number) => void) | undefined,
  search: () => T,
): T {
  if (charge === undefined) return search();
  const before = engine.encoderScans;
  const result = search();
  const scans = engine.encoderScans - before;
  if (scans > 0) charge(scans * encoderScanWeight(engine.size));
  return result;
}
