import { describe, expect, it } from 'vitest';
import { escapeHtml, html, raw } from './html';

describe('html', () => {
  it('escapes every interpolated string, in text and attribute positions alike', () => {
    const hostile = `"><script>alert('x')</script>&\``;
    const out = html`<p title="${hostile}">${hostile}</p>`.text;
    expect(out).not.toContain('<script>');
    expect(out).toBe(
      '<p title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&#96;">&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&#96;</p>',
    );
  });

  it('keeps nested templates as markup and joins arrays, escaping their strings', () => {
    const items = ['<a>', 'b&c'];
    const out = html`<ul>
      ${items.map((item) => html`<li>${item}</li>`)}
    </ul>`.text;
    expect(out).toContain('<li>&lt;a&gt;</li>');
    expect(out).toContain('<li>b&amp;c</li>');
  });

  it('renders nothing for null, undefined and false, and numbers as text', () => {
    expect(html`${null}${undefined}${false}${0}${true}`.text).toBe('0true');
  });

  it('passes raw markup through only when asked', () => {
    expect(html`${raw('<br />')}`.text).toBe('<br />');
    expect(escapeHtml('<br />')).toBe('&lt;br /&gt;');
  });
});
