import type { TopLevelSpec } from 'vega-lite';

import type { ChartSpec } from '../charts.js';

/** One bar with a whisker from `low` to `high` (all in percentage points or percent). */
export interface WhiskerBar {
  label: string;
  /** Colour group of the bar (a legend entry). */
  group: string;
  value: number;
  low: number;
  high: number;
}

export interface WhiskerChartOptions {
  id: string;
  title: string;
  caption: string;
  yTitle: string;
  groups: { name: string; color: string }[];
  bars: WhiskerBar[];
  /** Draw a line at zero (deltas). */
  zeroLine?: boolean;
  /** Angle of the bar labels (default 0; long labels read better at -30). */
  labelAngle?: number;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/**
 * Bars with whiskers (vega-lite layers: bar, rule from low to high, ticks at the ends), in the order given.
 * Values are rounded to 0.1 so the SVG does not depend on the last bits of a float.
 */
export function whiskerChart(o: WhiskerChartOptions): ChartSpec {
  const values = o.bars.map((b) => ({ label: b.label, group: b.group, value: round1(b.value), low: round1(b.low), high: round1(b.high) }));
  const x = { field: 'label', type: 'nominal', title: null, sort: null, axis: { labelAngle: o.labelAngle ?? 0 } } as const;
  const spec: TopLevelSpec = {
    title: o.title,
    width: Math.max(240, o.bars.length * 72),
    height: 220,
    data: { values },
    layer: [
      {
        mark: { type: 'bar', tooltip: false },
        encoding: {
          x,
          y: { field: 'value', type: 'quantitative', title: o.yTitle },
          color: { field: 'group', type: 'nominal', title: null, scale: { domain: o.groups.map((g) => g.name), range: o.groups.map((g) => g.color) } },
        },
      },
      { mark: { type: 'rule', color: '#1d2430', strokeWidth: 1.5 }, encoding: { x, y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' } } },
      { mark: { type: 'tick', color: '#1d2430', thickness: 1.5, size: 12 }, encoding: { x, y: { field: 'low', type: 'quantitative' } } },
      { mark: { type: 'tick', color: '#1d2430', thickness: 1.5, size: 12 }, encoding: { x, y: { field: 'high', type: 'quantitative' } } },
      ...(o.zeroLine ? [{ mark: { type: 'rule', color: '#5b6576', strokeDash: [4, 3] }, encoding: { y: { datum: 0 } } } as const] : []),
    ],
  } as TopLevelSpec;
  return { id: o.id, title: o.title, caption: o.caption, spec };
}

export const CHART_COLORS = { seed: '#2f7d4f', invalid: '#8a94a6', pooled: '#4b6cb7', full: '#2f7d4f', arm: '#8a94a6', none: '#b3261e' };
