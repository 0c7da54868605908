/**
 * Which reply subjects the daemon answers on. NATS checks what a client may publish and subscribe
 * to, but not the reply subject it names on a request; the daemon's user may publish anywhere. An
 * answer is therefore only sent to an inbox of the request's own tenant (`security.replyPrefixes`,
 * `{tenant}` standing for it), so no client can aim the daemon's reply at another tenant's
 * subjects, at JetStream's API or at the KV bucket.
 */
export function replyPolicy(security: {
  insecure: boolean;
  replyPrefixes: readonly string[];
}): (reply: string, tenant: string) => boolean {
  const templates = security.replyPrefixes;
  return (reply, tenant) => {
    if (reply === '') return false;
    // Open NATS (development and tests): clients reply on NATS's default inboxes.
    if (security.insecure && reply.startsWith('_INBOX.')) return true;
    for (const template of templates) if (reply.startsWith(template.replaceAll('{tenant}', tenant))) return true;
    return false;
  };
}
