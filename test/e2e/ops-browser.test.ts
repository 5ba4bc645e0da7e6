import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEMO, type Stack } from "../../sandbox/stack.ts";
import type { Subscription } from "../../src/subscriptions/types.ts";
import { OPS_TOKEN, opsStack, plantFailure, REF, until } from "./ops-helpers.ts";

/**
 * /ops in a real browser: Debian's headless Chromium, driven by playwright-core, signs in, reads a
 * workspace's failure after a run with a planted `channel_not_found`, retries it and sees it posted;
 * axe-core, injected into each page, finds no serious or critical accessibility violation.
 * Screenshots go to test/artifacts/ops/ (not committed; docs/img/ keeps a copy for the docs).
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARTIFACTS = join(process.cwd(), "test", "artifacts", "ops");
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

let stack: Stack;
let gone: { sub: Subscription; period: string };
let context: BrowserContext;
/** A second browser with JavaScript on, for axe-core: the pages are read in the first with it off. */
let checker: BrowserContext;
const profiles: string[] = [];

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Headless Chromium with a fresh profile (its own --user-data-dir). */
function launch(javaScriptEnabled: boolean): Promise<BrowserContext> {
  const profile = mkdtempSync(join(tmpdir(), "ops-chromium-"));
  profiles.push(profile);
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 900 },
    javaScriptEnabled,
  });
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `No Chromium at ${CHROMIUM}: install Debian's (apt-get install -y --no-install-recommends chromium) or set CHROMIUM_PATH`,
    );
  mkdirSync(ARTIFACTS, { recursive: true });
  stack = await opsStack(inject("redisUrl"), "ops-browser");
  gone = await plantFailure(stack, DEMO.general, "channel_not_found");
  // What the operator does runs with JavaScript off: the pages must work without any.
  [context, checker] = await Promise.all([launch(false), launch(true)]);
}, 60_000);
afterAll(async () => {
  await context?.close();
  await checker?.close();
  for (const p of profiles) rmSync(p, { recursive: true, force: true });
  await stack?.close();
});

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown }[];
}

/**
 * axe-core's serious and critical violations on the page `page` shows, read again by the checker
 * browser with the same session (axe needs JavaScript's timers, which a page without JavaScript
 * does not run). The page itself carries no script, and its CSP would refuse one.
 */
async function accessibilityProblems(page: Page): Promise<string[]> {
  expect(await page.locator("script").count()).toBe(0);
  await checker.clearCookies();
  await checker.addCookies(await context.cookies());
  const copy = await checker.newPage();
  await copy.goto(page.url());
  expect(new URL(copy.url()).pathname).toBe(new URL(page.url()).pathname);
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  const violations = (await copy.evaluate(
    `(() => { ${AXE}; return axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations); })()`,
  )) as AxeViolation[];
  await copy.close();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${JSON.stringify(v.nodes.map((n) => n.target))})`);
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

describe("/ops in headless Chromium", () => {
  it("signs in, reads a workspace's failure, retries it and sees it posted; no serious accessibility violation", async () => {
    const page = await context.newPage();
    const base = stack.web.url;

    await page.goto(`${base}/ops`);
    expect(new URL(page.url()).pathname).toBe("/ops/login");
    expect(await accessibilityProblems(page)).toEqual([]);
    await shot(page, "1-login");
    await page.getByLabel("Your name (for the audit log)").fill("Grace Hopper");
    await page.getByLabel("Operations token").fill(OPS_TOKEN);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${base}/ops`);
    await expect.poll(() => page.getByText("Signed in as Grace Hopper").count()).toBe(1);
    const cookies = await context.cookies(`${base}/ops`);
    expect(cookies.find((c) => c.name === "ops_session")).toMatchObject({
      httpOnly: true,
      sameSite: "Strict",
    });

    const overview = (await page.locator("main").textContent()) ?? "";
    expect(overview).toContain("channel_not_found");
    expect(overview).toContain(gone.sub.id);
    expect(overview).not.toContain(OPS_TOKEN);
    expect(await accessibilityProblems(page)).toEqual([]);
    await shot(page, "2-overview");

    // From the failure to its workspace, as an operator would.
    await page
      .getByRole("link", { name: `-.${DEMO.teamId}` })
      .first()
      .click();
    await page.waitForURL(`${base}/ops/workspace/-.${DEMO.teamId}`);
    // The subscriptions table's row (the failures table below names the subscription too).
    const row = page.getByRole("row", { name: `${gone.sub.id} digest` });
    await expect
      .poll(async () => (await row.textContent()) ?? "")
      .toContain("the channel no longer exists or the app cannot see it");
    expect(await row.textContent()).toContain("paused (channel_not_found)");
    expect(await accessibilityProblems(page)).toEqual([]);
    await shot(page, "3-workspace-failed");

    await page.getByRole("button", { name: `Resume and deliver ${gone.sub.id}` }).click();
    await page.waitForURL(/notice=resumed$/);
    expect(await page.getByRole("status").textContent()).toContain("The subscription was resumed");
    await until(async () => {
      const s = await stack.web.deps.subscriptions.get(REF, gone.sub.id);
      return s?.lastDelivery?.outcome === "delivered";
    }, "the retried digest");
    expect(stack.slack.messages(DEMO.general).some((m) => (m.blocks?.length ?? 0) > 0)).toBe(true);
    await page.goto(`${base}/ops/workspace/-.${DEMO.teamId}`);
    const after = await page.getByRole("row", { name: `${gone.sub.id} digest` }).textContent();
    expect(after).toContain("delivered");
    expect(after).toContain("active");
    expect(await page.getByRole("button", { name: `Resume and deliver ${gone.sub.id}` }).count()).toBe(0);
    expect(await accessibilityProblems(page)).toEqual([]);
    await shot(page, "4-workspace-delivered");
    await page.close();
  }, 120_000);
});
