/**
 * axe-core in the page, in any engine: its source injected by script (no driver has a way of its
 * own in all three), run on the whole document. axe walks open shadow roots itself, so it sees
 * the element's form and dialog. Frames are left out (`iframes: false`): the only frames are the
 * bank's pages in the dialog, which are the sandbox gateway's, not the product's, and on other
 * origins axe would have to be injected into each.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Tab } from './drivers/tab.js';

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

export interface Violation {
  rule: string;
  impact: string;
  help: string;
  /** One line per element: its selector (`a >>> b` into a shadow root) and what fails. */
  nodes: string[];
}

export interface AxeRun {
  violations: Violation[];
  /**
   * The elements inside the element's shadow root that some rule checked and passed: proof that
   * axe looked in (a clean run that never saw the form would prove nothing).
   */
  inElement: string[];
}

/** axe's violations, every impact, on what the page shows now. */
export async function axe(tab: Tab): Promise<AxeRun> {
  // Once per document: a second copy would only replace the first.
  await tab.run(`() => { if (!window.axe) { ${AXE_SOURCE}\n } return true; }`);
  return tab.run<AxeRun>(`async () => {
    const results = await window.axe.run(document, { iframes: false });
    const selector = (target) =>
      target.map((part) => (Array.isArray(part) ? part.join(' >>> ') : part)).join(' / ');
    const inElement = new Set();
    for (const pass of results.passes) {
      for (const n of pass.nodes) {
        const s = selector(n.target);
        if (s.startsWith('pay-checkout >>> ')) inElement.add(s);
      }
    }
    return {
      violations: results.violations.map((v) => ({
        rule: v.id,
        impact: v.impact ?? 'unknown',
        help: v.help,
        nodes: v.nodes.map((n) => selector(n.target) + ': ' + (n.failureSummary ?? '').replace(/\\s+/g, ' ')),
      })),
      inElement: [...inElement],
    };
  }`);
}

/** The violations as a person reads them in a test failure. */
export function formatViolations(where: string, violations: Violation[]): string {
  return violations
    .map(
      (v) =>
        `${where}: ${v.rule} (${v.impact}) ${v.help}\n${v.nodes.map((n) => `    ${n}`).join('\n')}`,
    )
    .join('\n');
}
