import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium, started as this machine needs it: no sandbox as root, no background network. */
export const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Playwright gives each launch a new empty profile of its own. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

/**
 * Opens a page file with every request that leaves the file refused and recorded, and every console
 * error recorded; resolves once `ready` (a CSS selector) is present.
 */
export async function openPage(browser: Browser, file: string, ready: string): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const requests: string[] = [];
  const errors: string[] = [];
  const own = `file://${file}`;
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url === own) return route.continue();
    requests.push(url);
    return route.abort();
  });
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(own);
  await page.waitForSelector(ready, { timeout: 20_000 });
  return { page, requests, errors };
}
