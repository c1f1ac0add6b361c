import type { TopLevelSpec } from 'vega-lite';

import { InternalError } from '../episode/index.js';
import type { RunArtifacts } from '../run-dir/read-run.js';
import { describeProvenance } from './provenance.js';
import { summarizeHookFirings } from './task-rows.js';

/** A chart of the report: its vega-lite spec and, once rendered, its SVG markup. */
export interface ChartSpec {
  id: string;
  title: string;
  /** One sentence under the chart saying what it shows (and that results are simulated, when they are). */
  caption: string;
  spec: TopLevelSpec;
}

export interface ReportChart extends Omit<ChartSpec, 'spec'> {
  svg: string;
}

/** System font names only: nothing is fetched, and text is measured by vega's built-in estimate. */
const CHART_CONFIG = {
  font: 'sans-serif',
  background: 'white',
  view: { stroke: null },
  axis: { labelFontSize: 11, titleFontSize: 12, labelLimit: 360 },
  legend: { labelFontSize: 11, titleFontSize: 12 },
  title: { fontSize: 13 },
} as const;

const SERIES_COLORS = { baseline: '#8a94a6', patched: '#2f7d4f' };

/**
 * Renders a vega-lite spec to an SVG string offline: vega-lite compiles it to vega, and a headless vega view
 * (`renderer: 'none'`) serializes the scenegraph. Only inline data is allowed, so no loader ever runs.
 * The namespace attributes are dropped (inline SVG in HTML does not need them), so the report holds no URL.
 */
export async function renderVegaLiteSvg(spec: TopLevelSpec): Promise<string> {
  if ('data' in spec && spec.data && !('values' in spec.data)) {
    throw new InternalError({ message: 'Report charts take inline data only (data.values); nothing may be loaded.' });
  }
  // Loaded here, not at start-up: every command imports the report, few render one.
  const [vega, { compile }] = await Promise.all([import('vega'), import('vega-lite')]);
  const { spec: vegaSpec } = compile({ ...spec, config: { ...CHART_CONFIG, ...(spec.config ?? {}) } } as TopLevelSpec);
  const view = new vega.View(vega.parse(vegaSpec), { renderer: 'none' });
  try {
    const svg = await view.toSVG();
    return checkSvg(svg.replace(/(?<!\s)\s+xmlns(?::xlink)?="[^"]*"/g, ''));
  } finally {
    view.finalize();
  }
}

const SVG_ELEMENTS = new Set(['svg', 'g', 'path', 'rect', 'line', 'text', 'tspan', 'title', 'desc', 'defs', 'clipPath', 'circle', 'ellipse', 'polygon', 'polyline']);

/**
 * The SVG is vega's markup, but built from artifact strings (vega escapes text and attribute values). As a
 * second guard, every tag is checked: known shape elements only, no event handler, no link, no reference
 * outside the document.
 */
function checkSvg(svg: string): string {
  const refuse = (what: string): never => {
    throw new InternalError({ message: `The rendered chart SVG holds ${what}; a report must not contain it.` });
  };
  if (!svg.startsWith('<svg')) refuse('no <svg> root');
  const openTag = /<([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"]*")*)\s*\/?>/y;
  const closeTag = /<\/([A-Za-z][\w:-]*)>/y;
  // Every '<' must start a well-formed tag (vega writes a text '<' as &lt;), and every tag is checked.
  for (let at = svg.indexOf('<'); at !== -1; at = svg.indexOf('<', at + 1)) {
    closeTag.lastIndex = at;
    openTag.lastIndex = at;
    const close = closeTag.exec(svg);
    const open = close ? null : openTag.exec(svg);
    const name = close?.[1] ?? open?.[1];
    if (name === undefined) refuse('a malformed tag');
    else if (!SVG_ELEMENTS.has(name)) refuse(`a <${name}> element`);
    for (const [, attr = '', value = ''] of (open?.[2] ?? '').matchAll(/(?<![\w:-])([\w:-]+)="([^"]*)"/g)) {
      if (/^on/i.test(attr) || /href$/i.test(attr) || attr === 'src') refuse(`a ${attr} attribute`);
      if (/url\((?!#)/i.test(value)) refuse('an external url() reference');
    }
  }
  return svg;
}

/** The charts a report shows for these artifacts (at least one whenever there is an episode). */
export function buildChartSpecs(artifacts: RunArtifacts): ChartSpec[] {
  return artifacts.kind === 'improve' ? improveCharts(artifacts) : runCharts(artifacts);
}

/** Builds and renders every chart of the report. */
export async function renderReportCharts(artifacts: RunArtifacts): Promise<ReportChart[]> {
  const charts: ReportChart[] = [];
  for (const { spec, ...rest } of buildChartSpecs(artifacts)) charts.push({ ...rest, svg: await renderVegaLiteSvg(spec) });
  return charts;
}

function simulatedNote(simulated: boolean): string {
  return simulated ? ' SIMULATED target: these are not a real model’s results.' : '';
}

function improveCharts(a: Extract<RunArtifacts, { kind: 'improve' }>): ChartSpec[] {
  const simulated = describeProvenance(a).simulatedTarget;
  const suffix = simulated ? ' (SIMULATED target)' : '';
  const passes: { batch: string; series: string; passes: number; tasks: number }[] = [];
  for (const b of a.batches) {
    const tasks = Object.keys(b.result.baseline.rewards).length;
    passes.push({ batch: b.tag, series: 'baseline', passes: b.result.baseline.pass, tasks });
    if (b.result.patched) passes.push({ batch: b.tag, series: 'patched', passes: b.result.patched.pass, tasks });
  }
  const charts: ChartSpec[] = [
    {
      id: 'chart-passes',
      title: `Passes per batch: baseline vs patched${suffix}`,
      caption: `Tasks passed in each batch before (baseline, no harness) and after the batch's patch was installed; batches whose patch was never rerun show the baseline only.${simulatedNote(simulated)}`,
      spec: {
        title: `Passes per batch${suffix}`,
        width: Math.max(220, a.batches.length * 70),
        height: 220,
        data: { values: passes },
        mark: { type: 'bar', tooltip: false },
        encoding: {
          x: { field: 'batch', type: 'nominal', title: 'batch', axis: { labelAngle: 0 } },
          xOffset: { field: 'series', type: 'nominal', sort: ['baseline', 'patched'] },
          y: { field: 'passes', type: 'quantitative', title: 'tasks passed', axis: { tickMinStep: 1 } },
          color: {
            field: 'series',
            type: 'nominal',
            title: null,
            scale: { domain: ['baseline', 'patched'], range: [SERIES_COLORS.baseline, SERIES_COLORS.patched] },
          },
        },
      },
    },
  ];
  const effects = new Map<string, number>();
  for (const b of a.batches) {
    for (const [key, n] of Object.entries(b.result.hookEffects)) effects.set(key, (effects.get(key) ?? 0) + n);
  }
  if (effects.size > 0) charts.push(hookChart(effects, 'Hook effects applied in the patched reruns', simulated));
  return charts;
}

function runCharts(a: Extract<RunArtifacts, { kind: 'run' }>): ChartSpec[] {
  const simulated = a.run.manifest.target.simulated;
  const suffix = simulated ? ' (SIMULATED target)' : '';
  const outcomes = new Map<string, number>();
  for (const r of a.run.records) outcomes.set(r.outcome, (outcomes.get(r.outcome) ?? 0) + 1);
  const charts: ChartSpec[] = [
    {
      id: 'chart-outcomes',
      title: `Episode outcomes${suffix}`,
      caption: `How the run's episodes ended; model_error, env_error and hook_fault are infrastructure failures, not target failures.${simulatedNote(simulated)}`,
      spec: {
        title: `Episode outcomes${suffix}`,
        width: Math.max(220, outcomes.size * 70),
        height: 200,
        data: { values: [...outcomes.entries()].map(([outcome, episodes]) => ({ outcome, episodes })) },
        mark: { type: 'bar', color: SERIES_COLORS.patched, tooltip: false },
        encoding: {
          x: { field: 'outcome', type: 'nominal', title: 'outcome', axis: { labelAngle: 0 } },
          y: { field: 'episodes', type: 'quantitative', title: 'episodes', axis: { tickMinStep: 1 } },
        },
      },
    },
  ];
  const effects = new Map<string, number>();
  for (const r of a.run.records) {
    for (const f of summarizeHookFirings(r)) effects.set(f.key, (effects.get(f.key) ?? 0) + f.count);
  }
  if (effects.size > 0) charts.push(hookChart(effects, 'Hook effects and faults in the run', simulated));
  return charts;
}

function hookChart(effects: ReadonlyMap<string, number>, title: string, simulated: boolean): ChartSpec {
  const suffix = simulated ? ' (SIMULATED target)' : '';
  return {
    id: 'chart-hooks',
    title: `${title}${suffix}`,
    caption: `How many times each hook returned each kind of effect that the runtime applied, summed over episodes.${simulatedNote(simulated)}`,
    spec: {
      title: `${title}${suffix}`,
      width: 360,
      height: { step: 22 },
      data: { values: [...effects.entries()].map(([effect, count]) => ({ effect, count })) },
      mark: { type: 'bar', color: '#4b6cb7', tooltip: false },
      encoding: {
        y: { field: 'effect', type: 'nominal', title: null, sort: '-x' },
        x: { field: 'count', type: 'quantitative', title: 'times applied', axis: { tickMinStep: 1 } },
      },
    },
  };
}
