/**
 * The inspector page in a real headless browser: Debian's chromium driven by playwright-core
 * (no browser download). The page is opened, a request sent through the official `openai` SDK
 * shows up live, the exchange opens with its stream timeline and loss report, and no configured
 * secret is anywhere in the DOM. The inspector's screenshot (docs/inspector.png) is taken here:
 * `INTERLINGUA_SCREENSHOT=1 npx vitest run test/inspector-browser.test.ts`.
 * Skipped, saying why, when /usr/bin/chromium is missing (.ci/run installs it).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureReply } from './support/mock-upstream.ts';
import { INBOUND_KEY, UPSTREAM_KEYS, e2eConfig, useHarness } from './support/proxy.ts';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`inspector browser test skipped: ${CHROMIUM} is missing (apt-get install chromium; .ci/run does)`);

const root = join(import.meta.dirname, '..');

describe.skipIf(!hasChromium)('inspector page in headless chromium', () => {
  const h = useHarness('node', (url) => e2eConfig(url, { inspector: true, limits: { maxBodyBytes: 4096 } }));
  let browser: BrowserContext;
  let page: Page;
  let profile: string;

  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    mkdirSync(join(root, '.tmp'), { recursive: true });
    profile = mkdtempSync(join(root, '.tmp', 'chromium-profile-'));
    // A fresh profile under .tmp (playwright passes it as --user-data-dir).
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1440, height: 900 },
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = browser.pages()[0] ?? (await browser.newPage());
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('shows exchanges live, an exchange with its timeline and loss report, and no secret in the DOM', async () => {
    await page.goto(`${h.proxy.url}/_inspector?key=${INBOUND_KEY}`);
    await expect.poll(() => page.textContent('#live')).toContain('live');
    expect(await page.locator('tr.row').count()).toBe(0);

    // A request through the official SDK appears without a reload.
    const client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
    h.mock.reply(fixtureReply('anthropic', 'stream-text-basic.sse'));
    const stream = await client.chat.completions.create({ model: 'to-anthropic', messages: [{ role: 'user', content: 'Hello from the browser test' }], stream: true, logprobs: true, seed: 7 });
    for await (const _ of stream) void _;
    const row = page.locator('tr.row').first();
    await row.waitFor({ timeout: 10_000 });
    await expect.poll(() => row.textContent()).toContain('200');
    const rowText = (await row.textContent())!;
    expect(rowText).toContain('openai-chat → anthropic');
    expect(rowText).toContain('to-anthropic');

    // A second one: an upstream error, also live.
    h.mock.reply(fixtureReply('anthropic', 'error-400-invalid-request.json'));
    await client.chat.completions.create({ model: 'to-anthropic', messages: [{ role: 'user', content: 'fail' }] }).catch(() => undefined);
    await expect.poll(() => page.locator('tr.row').count()).toBe(2);
    await expect.poll(() => page.locator('tr.row').first().textContent()).toContain('400');

    // Open the stream exchange: caller request, plan, timeline rows, the loss report.
    await page.locator('tr.row').nth(1).click();
    await page.locator('#loss').waitFor();
    const loss = (await page.textContent('#loss'))!;
    expect(loss).toContain('dropped:logprobs');
    expect(loss).toContain('dropped:seed');
    expect(await page.locator('pre span.lost').count()).toBeGreaterThan(0);
    const detail = (await page.textContent('#detail'))!;
    expect(detail).toContain('Upstream attempt 1: anthropic → 200');
    expect(detail).toContain('first: anthropic (anthropic) as claude-sonnet-4-5');
    const events = page.locator('.attempt .timeline details.ev summary');
    expect(await events.count()).toBeGreaterThan(3);
    expect(await events.first().textContent()).toMatch(/^\+\d+ ms\s*message_start/);
    await events.first().click();
    expect(await page.locator('.attempt .timeline details.ev[open] pre').first().textContent()).toContain('"message_start"');
    expect(await page.locator('#received-timeline details.ev').count()).toBeGreaterThan(1);

    // Replay as a dry-run, shown on the page.
    await page.getByRole('button', { name: 'Replay as dry-run' }).click();
    await expect.poll(() => page.textContent('#replay')).toContain('"dryRun": true');

    // The inspector's screenshot is refreshed with INTERLINGUA_SCREENSHOT=1 (else it goes to .tmp, so a run leaves the tree clean).
    const shot = process.env.INTERLINGUA_SCREENSHOT === '1' ? join(root, 'docs', 'inspector.png') : join(root, '.tmp', 'inspector.png');
    await page.screenshot({ path: shot });
    expect(statSync(shot).size).toBeGreaterThan(20_000);

    // Copy as curl: credentials as placeholders (the clipboard stubbed to read what was copied).
    await page.evaluate(() => {
      const copied: string[] = ((window as any).__copied = []);
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (t: string) => void copied.push(t) } });
    });
    await page.getByRole('button', { name: 'Copy upstream request as curl' }).click();
    await page.getByRole('button', { name: 'Copy caller request as curl' }).click();
    await expect.poll(() => page.evaluate(() => (window as any).__copied.length)).toBe(2);
    const [upstreamCurl, callerCurl] = (await page.evaluate(() => (window as any).__copied)) as [string, string];
    expect(upstreamCurl).toContain(`curl -X POST '${h.mock.url}/v1/messages'`);
    expect(upstreamCurl).toContain('-H "x-api-key: $ANTHROPIC_API_KEY"');
    expect(upstreamCurl).toContain('"model":"claude-sonnet-4-5"');
    expect(callerCurl).toContain(`curl -X POST '${h.proxy.url}/v1/chat/completions'`);
    expect(callerCurl).toContain('-H "authorization: Bearer $INTERLINGUA_KEY"');
    expect(callerCurl).toContain('Hello from the browser test');
    for (const secret of [INBOUND_KEY, ...Object.values(UPSTREAM_KEYS)]) expect(upstreamCurl + callerCurl).not.toContain(secret);

    // No configured secret anywhere in the document (text, attributes, scripts).
    const dom = await page.evaluate(() => document.documentElement.outerHTML);
    for (const secret of [INBOUND_KEY, ...Object.values(UPSTREAM_KEYS)]) expect(dom).not.toContain(secret);
    expect(dom).toContain('***');
  }, 60_000);

  it('a request refused before routing shows its route and the model it named; actions that need a body are hidden without one', async () => {
    await page.goto(`${h.proxy.url}/_inspector?key=${INBOUND_KEY}`);
    await expect.poll(() => page.textContent('#live')).toContain('live');
    const before = await page.locator('tr.row').count();
    const post = (path: string, body: string, key = INBOUND_KEY) =>
      fetch(`${h.proxy.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-goog-api-key': key }, body });
    // A body that is read but fails its checks: the model it named.
    expect((await post('/v1/chat/completions', JSON.stringify({ model: 'to-anthropic', messages: 'not a list' }))).status).toBe(400);
    // A wrong key: nothing read, the path is the route.
    expect((await post('/v1/chat/completions', JSON.stringify({ model: 'to-anthropic', messages: [] }), 'il-wrong-key')).status).toBe(401);
    // Too large to read: the model the path names (Gemini), and no body to replay.
    expect((await post('/v1beta/models/gemini-2.5-flash:generateContent', JSON.stringify({ contents: [{ parts: [{ text: 'x'.repeat(8000) }] }] }))).status).toBe(413);
    await expect.poll(() => page.locator('tr.row').count()).toBe(before + 3);
    const rows = page.locator('tr.row');
    const [large, badKey, invalid] = await Promise.all([0, 1, 2].map((i) => rows.nth(i).textContent()));
    expect(invalid).toContain('openai-chat → –');
    expect(invalid).toContain('to-anthropic');
    expect(badKey).toContain('POST /v1/chat/completions → –');
    expect(large).toContain('POST /v1beta/models/gemini-2.5-flash:generateContent → –');
    expect(large).toContain('gemini-2.5-flash');
    for (const row of [large, badKey, invalid]) expect(row).not.toContain('none');

    // The 413: nothing to replay, copy or download, and the page says why.
    await rows.nth(0).click();
    await expect.poll(() => page.textContent('#detail')).toContain('413');
    expect(await page.textContent('#detail')).toContain('No caller body was read');
    for (const name of ['Replay as dry-run', 'Copy caller request as curl', 'Download fixture']) expect(await page.getByRole('button', { name }).count()).toBe(0);
    // The invalid body was read: it can be replayed.
    await rows.nth(2).click();
    await page.getByRole('button', { name: 'Replay as dry-run' }).waitFor();
    expect(await page.getByRole('button', { name: 'Copy caller request as curl' }).count()).toBe(1);
  }, 60_000);
});
