import type { Logger } from 'pino';
import type { SessionActors } from './session-actors';
import type { SessionDescriptor, SessionStore } from './session-store.adapter';
import type { SurfaceBuilder } from './surface';

/**
 * `tool_search.keep_found: N` (seed 003: tools a session discovered stay available): records the
 * tools a session described or ran, oldest first, at most N, in its stored descriptor. The next
 * assembly loads them directly; the session's actor re-assembles it at once, so its tier event
 * goes out and an MCP client hears `list_changed`. The order is the order of discovery and a tool found again does not move, so the
 * tool array only changes when a new tool is found. Updates of one session on this replica are
 * applied one after another.
 */
export class FoundTools {
  readonly #pending = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: {
      store: SessionStore;
      actors: SessionActors;
      surfaces: SurfaceBuilder;
      descriptor: (tenant: string, id: string) => Promise<SessionDescriptor>;
      /** Tells the other replicas to drop their copies of these sessions. */
      invalidate: (tenant: string, ids: readonly string[]) => void;
      log: Logger;
    },
  ) {}

  /** Notes that the session found `names`; never throws (a failure is logged and skipped). */
  note(tenant: string, id: string, names: readonly string[]): void {
    if (names.length === 0) return;
    const key = `${tenant}\u0000${id}`;
    const previous = this.#pending.get(key) ?? Promise.resolve();
    const next = previous
      .then(() => this.#apply(tenant, id, names))
      .catch((error: unknown) => this.deps.log.warn({ tenant, session: id, err: error }, 'could not note found tools'))
      .finally(() => {
        if (this.#pending.get(key) === next) this.#pending.delete(key);
      });
    this.#pending.set(key, next);
  }

  /** Resolves once every noted update of the session has been applied (for tests and shutdown). */
  async settled(tenant: string, id: string): Promise<void> {
    await this.#pending.get(`${tenant}\u0000${id}`);
  }

  async #apply(tenant: string, id: string, names: readonly string[]): Promise<void> {
    const descriptor = await this.deps.descriptor(tenant, id);
    const keep = this.deps.surfaces.config(descriptor.config, tenant).config.keep_found;
    if (keep === 0) return;
    const found = appendFound(descriptor.found, names, keep);
    if (found === descriptor.found) return;
    const stored = await this.deps.store.setFound(tenant, id, found);
    if (stored === undefined) return;
    // The session's actor takes the new copy and re-assembles (its tier event goes out).
    this.deps.actors.track(stored, { surfaceChanged: true });
    this.deps.invalidate(tenant, [id]);
  }
}

/**
 * `found` with the new names appended in order (each once), trimmed to the newest `keep`; the
 * same array when nothing changed.
 */
export function appendFound(found: readonly string[], names: readonly string[], keep: number): readonly string[] {
  const next = [...found];
  for (const name of names) if (!next.includes(name)) next.push(name);
  if (next.length === found.length) return found;
  return next.slice(Math.max(0, next.length - keep));
}
