/**
 * Vitest global setup: one line, once per run, when the browser suites will skip, saying how to
 * enable them (each skipped suite repeats it in its name).
 */
import { HOW_TO_ENABLE_BROWSER_TESTS, TEST_BROWSER } from './find-browser.js';

export default function announceMissingBrowser(): void {
  if (!TEST_BROWSER)
    process.stderr.write(
      `${process.env['CI'] === 'true' ? 'failing' : 'skipping'} browser tests: ${HOW_TO_ENABLE_BROWSER_TESTS}\n`,
    );
}
