import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import type { Result } from 'axe-core';

/** WCAG 2.1 A and AA, the level RGAA 4.1 is built on. */
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const TARGETS_SHOWN = 3;

function describe(violation: Result): string {
  const targets = violation.nodes.slice(0, TARGETS_SHOWN).map((node) => {
    const reason = node.failureSummary?.split('\n').slice(1).join(' ').trim();
    return `      - ${node.target.join(' ')}${reason ? `: ${reason}` : ''}`;
  });
  const more = violation.nodes.length > TARGETS_SHOWN ? [`      - … and ${violation.nodes.length - TARGETS_SHOWN} more`] : [];
  return [`  • ${violation.id} (${violation.impact ?? 'unknown impact'}): ${violation.help}`, ...targets, ...more].join('\n');
}

/**
 * Runs axe-core on the page as it is now and records a failure listing what it found. No rule is disabled.
 * The failure is soft: a walk through many screens goes on and reports every screen with violations at once.
 */
export async function expectNoAxeViolations(page: Page, where: string): Promise<void> {
  await settled(page);
  const results = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  const report = results.violations.map(describe).join('\n');
  expect.soft(results.violations.length, `axe-core found ${results.violations.length} violation(s) on ${where} (${page.url()}):\n${report}`).toBe(0);
}

/**
 * A screen is judged once settled: nothing still loading (aria-busy) and no CSS transition running. A users table
 * dims while a search loads and fades back in after it (transition-opacity): judged mid-way, its headers measured a
 * contrast of 3.26:1 (a clean-clone run of 2026-11-28). Bounded: a screen busy on purpose is judged as it is after 3 s.
 */
async function settled(page: Page): Promise<void> {
  await page
    .waitForFunction(() => !document.querySelector('[aria-busy="true"]') && document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'), undefined, { timeout: 3_000 })
    .catch(() => undefined);
}
