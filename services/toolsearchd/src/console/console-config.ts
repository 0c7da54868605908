import { z } from 'zod';

/**
 * The web console on the HTTP listener (`/console`; docs/console.md). It holds no secret of its
 * own: approvers and operators sign in with their credential keys.
 */
export const ConsoleConfigSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** A console sign-in lasts this long; the approver then signs in again. */
    sessionTtlMs: z
      .number()
      .int()
      .min(60_000)
      .max(7 * 86_400_000)
      .default(8 * 3_600_000),
    /**
     * The `Secure` attribute of the console's cookies. `auto`: set unless the page was asked for
     * by a loopback host name (`localhost`, `127.0.0.1`, `[::1]`, where browsers serve plain HTTP
     * as a secure context), so behind a TLS proxy the cookie never travels in clear; `always` and
     * `never` force it.
     */
    secureCookies: z.enum(['auto', 'always', 'never']).default('auto'),
    /** Live-update streams (Server-Sent Events) open at once on this replica, all tenants together. */
    maxStreams: z.number().int().min(1).max(100_000).default(1000),
  })
  .strict();
export type ConsoleConfig = z.infer<typeof ConsoleConfigSchema>;
