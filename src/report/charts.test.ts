import { describe, expect, it } from 'vitest';

import { renderVegaLiteSvg } from './charts.js';

describe('renderVegaLiteSvg', () => {
  it('renders a vega-lite spec to inline SVG offline, with no URL in it', async () => {
    const svg = await renderVegaLiteSvg({
      title: 'Passes',
      data: { values: [{ batch: 'batch_000', passes: 7 }, { batch: 'batch_001', passes: 9 }] },
      mark: 'bar',
      encoding: { x: { field: 'batch', type: 'nominal' }, y: { field: 'passes', type: 'quantitative' } },
    });
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('batch_001');
    expect(svg).not.toMatch(/https?:|xmlns/);
  });

  it('escapes hostile labels: text stays text', async () => {
    const hostile = `</svg><script>alert(1)</script><img src=x onerror="alert(2)">`;
    const svg = await renderVegaLiteSvg({
      title: hostile,
      data: { values: [{ label: hostile, n: 1 }] },
      mark: 'bar',
      encoding: { x: { field: 'label', type: 'nominal' }, y: { field: 'n', type: 'quantitative' } },
    });
    expect(svg).not.toMatch(/<script|<img|<\/svg>.*<\/svg>/s);
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('refuses data that would have to be loaded', async () => {
    await expect(renderVegaLiteSvg({ data: { url: 'https://example.com/data.json' }, mark: 'bar' })).rejects.toThrow(/inline data only/);
  });
});
