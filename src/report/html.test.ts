import { describe, expect, it } from 'vitest';

import { escapeHtml, html, slug, trustedHtml, truncateText } from './html.js';

describe('html', () => {
  it('escapes every interpolated value, including inside lists, and keeps SafeHtml as is', () => {
    const hostile = `<script>alert('x')</script>&"`;
    const inner = html`<b>${hostile}</b>`;
    const page = html`<p title="${hostile}">${[hostile, inner, 3, null, undefined, false]}</p>${trustedHtml('<svg></svg>')}`.value;
    expect(page).toBe(
      '<p title="&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&quot;">&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&quot;' +
        '<b>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&quot;</b>3</p><svg></svg>',
    );
    expect(escapeHtml('a&b')).toBe('a&amp;b');
  });

  it('makes ids and cuts long text with a note', () => {
    expect(slug('batch 0"/<x>')).toBe('batch_0___x_');
    expect(truncateText('abcdef', 3)).toBe('abc… [3 more characters]');
    expect(truncateText('abc', 3)).toBe('abc');
  });
});
