import { html } from './html';
import { notice, page } from './layout';

/** The sign-in form: a tenant and a credential key (approver or operator), with its CSRF field. */
export function signInPage(csrf: string, options: { error?: string; tenant?: string } = {}): string {
  return page({
    title: 'Sign in',
    content: html`${options.error !== undefined ? notice('error', options.error) : ''}
      <form method="post" action="/console/sign-in" class="sign-in">
        <input type="hidden" name="csrf" value="${csrf}" />
        <label for="tenant">Tenant</label>
        <input
          id="tenant"
          name="tenant"
          value="${options.tenant ?? ''}"
          required
          maxlength="63"
          autocomplete="organization"
        />
        <label for="key">Approver or operator key</label>
        <input id="key" name="key" type="password" required maxlength="512" autocomplete="current-password" />
        <p class="muted">
          The credential key (<code>tsk_…</code>) you were given with the approver or operator role. Session tokens and
          gateway keys cannot sign in.
        </p>
        <button type="submit">Sign in</button>
      </form>`,
  });
}
