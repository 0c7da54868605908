/**
 * The console's only way to produce HTML. `html\`…\`` escapes every interpolated value unless it
 * is already `Html` (the result of another `html` template, or of `raw` for the few constant
 * snippets that need it): a value from a tenant — a tool name, an argument, a session id — can
 * never become markup, whatever page renders it.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Text as HTML: the five markup characters (and backtick) replaced, in text and attribute values alike. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (character) => ESCAPES[character] ?? character);
}

type Interpolated = Html | string | number | boolean | null | undefined | readonly Interpolated[];

function render(value: Interpolated): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return (value as readonly Interpolated[]).map(render).join('');
  return escapeHtml(String(value as string | number | boolean));
}

/** A template whose interpolations are escaped (arrays are joined; null, undefined and false render nothing). */
export function html(strings: TemplateStringsArray, ...values: readonly Interpolated[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new Html(out);
}

/** Trusted markup written in the console's own code (never a value from a request or a store). */
export function raw(markup: string): Html {
  return new Html(markup);
}
