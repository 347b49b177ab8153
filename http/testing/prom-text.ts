/**
 * A small parser of the Prometheus text exposition format (0.0.4) for tests: samples keyed by their name and
 * labels as written (`name{a="x",b="y"}`, labels sorted by name), and the `# TYPE` of each family.
 */

/** One parsed scrape. */
export interface PromScrape {
  /** Sample values by `name{labels}` (no braces without labels). */
  readonly samples: ReadonlyMap<string, number>;
  /** Family types by name (`counter`, `gauge`, `histogram`, ...). */
  readonly types: ReadonlyMap<string, string>;
  /** The value of a sample, or undefined when absent. */
  value(name: string, labels?: Readonly<Record<string, string>>): number | undefined;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?/gy;

/** The key of a sample: its name and its labels sorted by name. */
export function sampleKey(name: string, labels: Readonly<Record<string, string>> = {}): string {
  const names = Object.keys(labels).sort();
  return names.length === 0 ? name : `${name}{${names.map((n) => `${n}="${labels[n]!}"`).join(',')}}`;
}

/** A sample value; NaN and Inf in any case, as Prometheus reads them (prom-client writes NaN as `Nan`). */
function parseValue(s: string): number {
  const l = s.toLowerCase();
  if (l === '+inf' || l === 'inf') return Infinity;
  if (l === '-inf') return -Infinity;
  if (l === 'nan') return NaN;
  const v = Number(s);
  if (Number.isNaN(v)) throw new Error(`bad sample value ${s}`);
  return v;
}

/** Parses a scrape; throws on a line that is neither a comment nor a well-formed sample. */
export function parsePromText(text: string): PromScrape {
  const samples = new Map<string, number>();
  const types = new Map<string, string>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      const m = /^# TYPE (\S+) (\S+)$/.exec(line);
      if (m) types.set(m[1]!, m[2]!);
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`bad sample line: ${line}`);
    const labels: Record<string, string> = {};
    if (m[2]) {
      LABEL.lastIndex = 0;
      let consumed = 0;
      for (let l = LABEL.exec(m[2]); l; l = LABEL.exec(m[2])) {
        labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_x, c: string) => (c === 'n' ? '\n' : c));
        consumed = LABEL.lastIndex;
      }
      if (consumed !== m[2].length) throw new Error(`bad labels: ${line}`);
    }
    samples.set(sampleKey(m[1]!, labels), parseValue(m[3]!));
  }
  return { samples, types, value: (name, labels) => samples.get(sampleKey(name, labels)) };
}
