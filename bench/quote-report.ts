/**
 * The report every quote bench prints (ours against an SDK on the same states): tinybench's table, the machine
 * line, and a markdown table of quotes per second with the ratio, ready for bench/README.md.
 */
import os from 'node:os';
import type { Bench } from 'tinybench';

/** Quotes per second of a task that runs `quotesPerIteration` quotes per iteration. */
export function quotesPerSec(bench: Bench, task: string, quotesPerIteration: number): number {
  const r = bench.tasks.find((x) => x.name === task)?.result as { throughput?: { mean: number } } | undefined;
  return (r?.throughput?.mean ?? 0) * quotesPerIteration;
}

/** One row: a label, our task and the SDK's task. */
export type QuoteRow = readonly [label: string, ours: string, sdk: string];

/** The machine line of every bench report. */
export function machineLine(): string {
  return `machine: ${os.cpus()[0]?.model ?? '?'} x${os.cpus().length}, node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
}

/** Prints the report: tinybench's table, the machine line, and `| label | ours | SDK | ours / SDK |` rows. */
export function printQuoteReport(bench: Bench, sdkHeader: string, rows: readonly QuoteRow[], quotesPerIteration: number): void {
  const fmt = (x: number): string => Math.round(x).toLocaleString('en-US');
  // A bench script reports on stdout by design.
  console.table(bench.table());
  console.log(machineLine());
  console.log(`| mode | ours (quotes/s) | ${sdkHeader} (quotes/s) | ours / SDK |`);
  console.log('|---|---:|---:|---:|');
  for (const [label, ours, sdk] of rows) {
    const [a, b] = [quotesPerSec(bench, ours, quotesPerIteration), quotesPerSec(bench, sdk, quotesPerIteration)];
    console.log(`| ${label} | ${fmt(a)} | ${fmt(b)} | ${(a / b).toFixed(1)}x |`);
  }
}
