import { html, type Html } from './html';
import type { SignedIn } from './console-sessions';

/** Pages of the navigation, with the role that may open each. */
const NAV = [
  { path: '/console/approvals', label: 'Approvals', roles: ['approver', 'operator'] },
  { path: '/console/sessions', label: 'Sessions', roles: ['operator'] },
  { path: '/console/toolsets', label: 'Toolsets', roles: ['operator'] },
  { path: '/console/activity', label: 'Activity', roles: ['operator'] },
  { path: '/console/quotas', label: 'Quotas', roles: ['operator'] },
] as const;

/** A time as UTC text inside `<time>` (the page's script shows it relative to now). */
export function timeOf(ms: number): Html {
  const iso = new Date(ms).toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 19).replace('T', ' ')} UTC</time>`;
}

/** A whole page: the signed-in bar and navigation (when signed in), the content, the script. */
export function page(options: {
  title: string;
  signedIn?: SignedIn;
  current?: string;
  /** What the live stream should refresh on this page (`approvals`, `approval:<id>`, `activity`). */
  live?: string;
  content: Html;
}): string {
  const { signedIn } = options;
  const nav =
    signedIn === undefined
      ? html``
      : html`<nav aria-label="Console">
          <ul>
            ${NAV.filter((item) => item.roles.some((role) => signedIn.roles.has(role))).map(
              (item) =>
                html`<li>
                  <a href="${item.path}" ${item.path === options.current ? html`aria-current="page"` : ''}
                    >${item.label}</a
                  >
                </li>`,
            )}
          </ul>
          <form method="post" action="/console/sign-out" class="sign-out">
            <input type="hidden" name="csrf" value="${signedIn.csrf}" />
            <span>${signedIn.name} · tenant ${signedIn.tenant}</span>
            <button type="submit">Sign out</button>
          </form>
        </nav>`;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${options.title} · toolsearch console</title>
        <link rel="stylesheet" href="/console/assets/console.css" />
        <script src="/console/assets/console.js" defer></script>
      </head>
      <body ${options.live !== undefined ? html`data-live="${options.live}"` : ''}>
        <a class="skip" href="#main">Skip to content</a>
        <header>
          <p class="brand">toolsearch console</p>
          ${nav}
        </header>
        <main id="main">
          <h1>${options.title}</h1>
          <p id="live-status" class="live-status" role="status" aria-live="polite"></p>
          ${options.content}
        </main>
      </body>
    </html>`.text;
}

/** A notice at the top of a page (`role=alert` for refusals so screen readers announce them). */
export function notice(kind: 'info' | 'error', text: string): Html {
  return html`<p class="notice ${kind}" ${kind === 'error' ? html`role="alert"` : html`role="status"`}>${text}</p>`;
}
