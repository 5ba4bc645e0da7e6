import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { accountFor, type Emulator, startEmulator } from "../../sandbox/analytics/index.ts";
import { freePort, type PrivateRedis, startPrivateRedis } from "../../sandbox/redis.ts";
import {
  DEMO,
  findElement,
  type SlackStandIn,
  type StoredView,
  startSlackStandIn,
} from "../../sandbox/slack/index.ts";
import { connectRedis } from "../../src/app/redis.ts";
import { loadConfig } from "../../src/config.ts";
import { ACTION, SUBSCRIBE_FIELD as F } from "../../src/ids.ts";
import { DIGEST_EVENT_TYPE } from "../../src/jobs/digest-post.ts";
import { createSubscriptionRuntime, type SubscriptionRuntime } from "../../src/jobs/runtime.ts";
import { silentLogger } from "../../src/log.ts";
import { createApiKeyStore } from "../../src/store/api-keys.ts";
import { formatKeyring, generateKeyring } from "../../src/store/crypto.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";
import { slotOf, slotSchedulerId } from "../../src/subscriptions/slots.ts";
import type { Subscription } from "../../src/subscriptions/types.ts";
import { productCli } from "../setup/product-build.ts";
import { type ReleaseBuild, releaseBuild } from "../setup/release-build.ts";
import { type ProductProcess, startProduct } from "./product-process.ts";

/**
 * A rolling deploy from the previous release to this checkout: both versions' `web` and `worker`
 * commands, each a process of its own started by its CLI, against one private Redis, the
 * Slack stand-in and the analytics emulator. The phases follow a deploy's order: the new web beside
 * the old worker, the workers switched over in the middle of a slot, then the reverse pairing (an
 * old web beside a new worker, as a deploy that starts with the workers has it).
 *
 * The previous release is 0.0.3, not 0.1.0 (the last one CHANGELOG.md names): 0.0.3 cannot read the
 * forms this checkout keeps its caches in (it inflates every insights and drivers entry it reads, and
 * parses the type-ahead lists' text whole), so the pairing with it is the one a deploy can get wrong;
 * 0.1.0 reads every form this checkout stores, and this checkout 0.1.0's (pointed at 0.1.0, a8b41a4,
 * this test passes too). It is built from git history here (test/setup/release-build.ts) and run on
 * this checkout's node_modules.
 */
const PREVIOUS = { version: "0.0.3", commit: "947389f8f7e31d5075f1464c29e5c514444cf719" };
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SIGNING_SECRET = "rolling-deploy-signing-secret";
/** An account of more than 100 assets: the digest's asset menu is then type-ahead, served by the web. */
const API_KEY = "rolling-deploy-key";
const REF = { teamId: DEMO.teamId };

let release: ReleaseBuild;
let redis: PrivateRedis;
let emulator: Emulator;
let slack: SlackStandIn;
let conn: RedisClient;
let runtime: SubscriptionRuntime;
let env: Record<string, string>;
const webs: { old?: ProductProcess & { port: number }; new?: ProductProcess & { port: number } } = {};
const workers: { old?: ProductProcess; new?: ProductProcess } = {};
const running: ProductProcess[] = [];

async function start(version: "old" | "new", kind: "web" | "worker", extra: Record<string, string> = {}) {
  const product = productCli([kind]);
  const p =
    version === "old"
      ? startProduct(`${PREVIOUS.version} ${kind}`, [release.cli, kind], release.dir, { ...env, ...extra })
      : startProduct(`this checkout's ${kind}`, product.argv, ROOT, { ...env, ...product.env, ...extra });
  running.push(p);
  await p.line(
    (l) =>
      l.msg ===
      (kind === "web" ? "web listening: /slack/events, /healthz, /readyz, /metrics" : "worker started"),
  );
  return p;
}

async function startWeb(version: "old" | "new") {
  const port = await freePort();
  const p = Object.assign(await start(version, "web", { PORT: String(port) }), { port });
  webs[version] = p;
  return p;
}

/** Slack's deliveries (commands, clicks, submissions, type-ahead) go to this web process. */
const deliverTo = (web: { port: number }) => slack.setAppUrl(`http://127.0.0.1:${web.port}/slack/events`);

const digestsIn = (channel: string) =>
  slack.messages(channel).filter((m) => m.metadata?.event_type === DIGEST_EVENT_TYPE);

/** `/insights <text>` from `userId` in #general; resolves with the first answer accepted on its response_url. */
async function command(text: string, userId: string = DEMO.member) {
  const sent = await slack.sendCommand({ teamId: DEMO.teamId, userId, channelId: DEMO.general, text });
  expect(sent.status).toBe(200);
  const url = sent.responseUrl as string;
  const reply = await slack.waitFor(() => slack.responses(url).find((r) => r.status === 200), {
    timeoutMs: 20_000,
    what: `the answer to /insights ${text}`,
  });
  return { url, body: reply.body as { blocks?: unknown[]; text?: string } };
}

/** The subscribe modal's inputs as Slack sends them on submission. */
function modalValues(o: { time: string; channel: string }): Record<string, unknown> {
  return {
    [F.channel]: { [F.channel]: { type: "conversations_select", selected_conversation: o.channel } },
    [F.frequency]: { [F.frequency]: { type: "radio_buttons", selected_option: { value: "daily" } } },
    [F.time]: { [F.time]: { type: "timepicker", selected_time: o.time } },
    [F.timezone]: { [F.timezone]: { type: "plain_text_input", value: "UTC" } },
    [F.range]: { [F.range]: { type: "static_select", selected_option: { value: "last7d" } } },
    [F.assets]: { [F.assets]: { type: "multi_static_select", selected_options: [] } },
  };
}

/**
 * `/insights subscribe` (the web opens the modal), then the admin submits a daily digest at `time`
 * UTC for `channel` to the web: the first submission shows the changed schedule's runs (the modal
 * was opened with the defaults), the second saves. Resolves with the stored subscription.
 */
async function subscribeThroughModal(time: string, channel: string): Promise<Subscription> {
  const before = slack.views().length;
  const sent = await slack.sendCommand({
    teamId: DEMO.teamId,
    userId: DEMO.admin,
    channelId: channel,
    text: "subscribe",
  });
  expect(sent.status).toBe(200);
  const modal: StoredView = await slack.waitFor(
    () =>
      slack
        .views()
        .slice(before)
        .find((v) => v.type === "modal" && v.view.callback_id === "subscribe_modal"),
    { timeoutMs: 20_000, what: "the subscribe modal" },
  );
  // The web drew it with the account's lists, read from what the worker's digest stored.
  expect(findElement(modal.view.blocks, F.assets), "the modal's asset menu").toBeDefined();
  const submit = () =>
    slack.sendViewSubmission({
      teamId: DEMO.teamId,
      userId: DEMO.admin,
      view: { id: modal.id },
      values: modalValues({ time, channel }),
    });
  const preview = await submit();
  expect(preview.status).toBe(200);
  expect(preview.body).toMatchObject({ response_action: "update" });
  const saved = await submit();
  expect(saved.status).toBe(200);
  expect(saved.body ?? {}).not.toHaveProperty("response_action");
  const sub = await slack.waitFor(
    async () =>
      (await runtime.store.listByChannel(REF, channel)).find((s) => s.time === time && s.tz === "UTC"),
    { timeoutMs: 10_000, what: "the subscription stored" },
  );
  return sub;
}

/** Fires the slot of `sub` now: its scheduler's next run, moved up (what BullMQ does at the time). */
async function fireSlot(sub: Subscription): Promise<void> {
  const slot = slotOf(sub);
  if (!slot) throw new Error(`subscription ${sub.id} has no slot`);
  const id = slotSchedulerId(slot.id);
  const scheduler = await runtime.queue.getJobScheduler(id);
  expect(scheduler, `scheduler ${id}`).toBeTruthy();
  const job = await runtime.queue.getJob(`repeat:${id}:${scheduler?.next}`);
  expect(job, `the next run of ${id}`).toBeTruthy();
  await job?.promote();
}

/**
 * A time of day twelve hours from now (UTC), plus `minutes`: a slot that never fires on its own
 * during the test (the test fires it). Any day would do: what is checked is who delivers and how
 * often, not the digest's days; and the release has no setting for its clock.
 */
function quietTime(minutes: number): string {
  const at = new Date(Date.now() + 12 * 3_600_000 + minutes * 60_000);
  return `${String(at.getUTCHours()).padStart(2, "0")}:${String(at.getUTCMinutes()).padStart(2, "0")}`;
}

beforeAll(async () => {
  [release, redis, emulator] = await Promise.all([
    releaseBuild(PREVIOUS.commit, `release ${PREVIOUS.version}`),
    startPrivateRedis(),
    startEmulator({ accounts: [{ apiKey: API_KEY, assetCount: 120 }] }),
  ]);
  slack = await startSlackStandIn({
    signingSecret: SIGNING_SECRET,
    appUrl: "http://127.0.0.1:9/slack/events",
  });
  env = {
    REDIS_URL: redis.url,
    ENCRYPTION_KEYS: formatKeyring(generateKeyring(1)),
    ANALYTICS_GRAPHQL_URL: emulator.graphqlUrl,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_BOT_TOKEN: DEMO.botToken,
    SLACK_API_URL: slack.apiUrl,
    PLATFORM_URL: emulator.appUrl,
    HEALTH_PORT: "0",
    LOG_LEVEL: "info",
    // A loaded machine runs four of the product's processes and the test's stand-ins at once.
    ANALYTICS_TIMEOUT_MS: "20000",
  };
  const config = loadConfig("worker", env);
  conn = connectRedis(redis.url, silentLogger());
  await createApiKeyStore({ redis: conn, keyring: config.keyring ?? [], prefix: undefined }).save(
    REF,
    API_KEY,
    {
      savedBy: DEMO.admin,
      savedAt: new Date().toISOString(),
    },
  );
  runtime = createSubscriptionRuntime({
    redis: conn,
    queuePrefix: config.queuePrefix,
    logger: silentLogger(),
  });
  console.info(
    `[rolling] ${PREVIOUS.version} (${PREVIOUS.commit.slice(0, 7)}) built in ${release.dir}, run on this checkout's node_modules${release.driftedDependencies.length > 0 ? `; its lockfile named other versions: ${release.driftedDependencies.join(", ")}` : ""}`,
  );
  const [, , oldWorker] = await Promise.all([startWeb("old"), startWeb("new"), start("old", "worker")]);
  workers.old = oldWorker;
}, 600_000);

afterAll(async () => {
  for (const p of running)
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
  await Promise.all(running.map((p) => p.exited));
  await runtime?.close();
  await conn?.quit().catch(() => conn.disconnect());
  await slack?.close();
  await emulator?.close();
  await redis?.destroy();
});

// A failed phase shows what each process logged last.
afterEach((ctx) => {
  if (ctx.task.result?.state !== "fail") return;
  for (const p of running)
    console.error(
      `--- ${p.name}\n${p.lines
        .slice(-20)
        .map((l) => JSON.stringify(l))
        .join("\n")}\n${p.stderr().slice(-2_000)}`,
    );
});

/** The requests a process logged as handled, by kind (`digest`, `subscribe`…). */
const handled = (p: ProductProcess | undefined, kind: string) =>
  (p?.lines ?? []).filter((l) => l.msg === "command handled" && l.kind === kind).length;
/** The subscriptions whose digest a worker logged as delivered. */
const deliveredBy = (p: ProductProcess | undefined) =>
  (p?.lines ?? []).filter((l) => l.msg === "digest delivered").map((l) => String(l.subId));
/**
 * What a process logged as going wrong, warnings included: a failed delivery attempt (retried 30 s
 * later, when an entry it could not read may still be cached), and the parts a digest goes out
 * without when they fail (its drivers, the previous period's line), which only a warning tells.
 */
const failures = (p: ProductProcess | undefined) =>
  (p?.lines ?? [])
    .filter((l) => ["warn", "error", "fatal"].includes(String(l.level)))
    .map((l) => `${p?.name}: ${l.msg} ${JSON.stringify(l.err ?? "")}`);

/** The asset type-ahead of a digest's menu, as the web answers it: the values offered for `typed`. */
async function typeAhead(typed: string): Promise<string[]> {
  const res = await slack.sendOptions({
    teamId: DEMO.teamId,
    userId: DEMO.member,
    actionId: ACTION.assetSelect,
    value: typed,
    channelId: DEMO.general,
  });
  expect(res.status).toBe(200);
  return ((res.body as { options?: { value: string }[] }).options ?? []).map((o) => o.value);
}

/**
 * A digest asked through the web and answered by the worker, the asset menu's type-ahead answered
 * by the web from the lists that digest stored, and a subscription stored by the web through the
 * modal, whose slot the worker delivers once to `channel`.
 */
async function handOffs(o: {
  range: string;
  asset: number;
  time: string;
  channel: string;
  worker: ProductProcess;
}) {
  const before = handled(o.worker, "digest");
  const digest = await command(o.range);
  expect(findElement(digest.body.blocks, ACTION.share), "a digest, not an error").toBeDefined();
  expect(findElement(digest.body.blocks, ACTION.assetSelect)?.element.type).toBe("external_select");
  // Its log line follows the answer.
  await slack.waitFor(() => handled(o.worker, "digest") === before + 1, {
    what: `${o.worker.name}'s log of the digest it answered`,
  });
  const asset = accountFor(API_KEY)?.assets[o.asset];
  expect(await typeAhead(asset?.displayValue ?? "")).toContain(asset?.value);

  const sub = await subscribeThroughModal(o.time, o.channel);
  await fireSlot(sub);
  await slack.waitFor(() => digestsIn(o.channel).length > 0, {
    timeoutMs: 20_000,
    what: "the slot's digest",
  });
  // Long enough for a second post to show, were there one.
  await sleep(1_000);
  expect(digestsIn(o.channel)).toHaveLength(1);
  expect(deliveredBy(o.worker)).toContain(sub.id);
  expect((await runtime.store.get(REF, sub.id))?.lastDelivery).toMatchObject({
    outcome: "delivered",
    messageTs: digestsIn(o.channel)[0]?.ts,
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A ceiling that catches a hang, not a speed target: a phase takes 5–15 s on a loaded 2-core machine. */
const PHASE_MS = 120_000;

describe(`rolling deploy from ${PREVIOUS.version} to this checkout, on one Redis`, () => {
  it(`a new web beside a ${PREVIOUS.version} worker: the old worker answers the new web's hand-offs and delivers, once, the slot of a subscription the new web stored`, {
    timeout: PHASE_MS,
  }, async () => {
    deliverTo(webs.new as { port: number });
    await handOffs({
      range: "last7d",
      asset: 70,
      time: quietTime(0),
      channel: DEMO.general,
      worker: workers.old as ProductProcess,
    });
    expect([...failures(workers.old), ...failures(webs.new)]).toEqual([]);
  });

  it(`a fix-rate alert the new web stored, checked by the ${PREVIOUS.version} worker: read as no condition, skipped, the record left as it was`, {
    timeout: PHASE_MS,
  }, async () => {
    // The new web parses and stores the condition (the command runs on the web); the old worker's
    // grammar has no fix rate. What it does with one is what docs/operations.md says of this pairing.
    deliverTo(webs.new as { port: number });
    const reply = await command("alert when fixrate < 60%", DEMO.admin);
    expect(JSON.stringify(reply.body)).toContain("fixrate");
    const sub = await slack.waitFor(
      async () =>
        (await runtime.store.listByChannel(REF, DEMO.general)).find(
          (s) => s.condition === "when fixrate < 60%",
        ),
      { timeoutMs: 10_000, what: "the fix-rate alert stored" },
    );
    expect(sub.mode).toBe("alert");
    const before = slack.messages(DEMO.general).length;
    await fireSlot(sub);
    const checked = await slack.waitFor(
      async () => {
        const fresh = await runtime.store.get(REF, sub.id);
        return fresh?.lastDelivery ? fresh : undefined;
      },
      { timeoutMs: 20_000, what: "the old worker's check of the fix-rate alert" },
    );
    expect(checked.lastDelivery).toMatchObject({ outcome: "skipped", reason: "no condition" });
    expect(checked).toMatchObject({ mode: "alert", condition: "when fixrate < 60%", status: "active" });
    expect(checked.runs?.alert?.state ?? "clear").toBe("clear");
    await sleep(1_000);
    expect(slack.messages(DEMO.general)).toHaveLength(before);
    expect([...failures(workers.old), ...failures(webs.new)]).toEqual([]);
  });

  it(`the workers switched over in the middle of a slot: both deliver it side by side, the ${PREVIOUS.version} one after the new one cached the slot's shared results; stopped (SIGTERM), the old one finishes the deliveries it holds and the new one delivers the rest; none lost, none twice`, {
    timeout: PHASE_MS,
  }, async () => {
    const n = 40;
    const channels = Array.from({ length: n }, (_, i) => `C0ROLL${String(i).padStart(3, "0")}`);
    for (const [i, id] of channels.entries()) slack.addChannel(DEMO.teamId, { id, name: `rolling-${i}` });
    // Stored as the new web stores them (this checkout's subscription service), one slot for all, on
    // one asset group: its drivers result is small enough to be kept as plain JSON (a larger one is
    // deflated, a form both versions read).
    const group = accountFor(API_KEY)?.assets[0]?.displayValue.split(" / ")[0] ?? "";
    const assets = (accountFor(API_KEY)?.assets ?? []).filter((a) =>
      a.displayValue.startsWith(`${group} / `),
    );
    expect(assets.length).toBeGreaterThan(0);
    const time = quietTime(5);
    const subs: Subscription[] = [];
    for (const channelId of channels)
      subs.push(
        (
          await runtime.subscriptions.create(
            REF,
            {
              channelId,
              schedule: { kind: "daily" },
              time,
              tz: "UTC",
              assetIds: assets.map((a) => a.value),
              filterLabels: assets.map((a) => a.displayValue),
            },
            DEMO.admin,
          )
        ).subscription,
      );
    const ids = subs.map((s) => s.id);
    const mine = (p: ProductProcess) => deliveredBy(p).filter((id) => ids.includes(id));
    const posted = () => channels.filter((c) => digestsIn(c).length > 0).length;
    // Each post takes a while, so the slot is still under way when the old worker is told to stop.
    slack.setLatency("chat.postMessage", 500);

    // The deploy's surge: the new worker starts while the old one still runs. Two deliveries at a
    // time, so that the old worker, five at a time, still finds the slot under way once it goes on.
    const old = workers.old as ProductProcess;
    const fresh = await start("new", "worker", { WORKER_CONCURRENCY: "2" });
    workers.new = fresh;
    // Side by side, whichever worker first computes what a slot's digests share (the insights reply,
    // the drivers) stores it for the other. The order that can go wrong is staged: the old worker is
    // held still while the new one fans the slot out and computes the first digests, then goes on
    // and reads what the new one stored.
    old.child.kill("SIGSTOP");
    await fireSlot(subs[0] as Subscription);
    try {
      await slack.waitFor(() => posted() >= 3, {
        timeoutMs: 30_000,
        what: "the new worker's first deliveries",
      });
    } finally {
      old.child.kill("SIGCONT");
    }
    await slack.waitFor(() => mine(old).length > 0 || failures(old).length > 0, {
      timeoutMs: 30_000,
      what: "deliveries of the old worker beside the new one",
    });
    expect(failures(old)).toEqual([]);
    const stoppedAfter = posted();
    expect(await old.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    try {
      await slack.waitFor(() => posted() === n, { timeoutMs: 30_000, what: "every delivery of the slot" });
      await sleep(1_000);
    } finally {
      slack.setLatency("chat.postMessage", 0);
    }

    const counts = channels.map((c) => digestsIn(c).length);
    expect({ lost: counts.filter((c) => c === 0).length, twice: counts.filter((c) => c > 1).length }).toEqual(
      {
        lost: 0,
        twice: 0,
      },
    );
    const byOld = mine(old);
    const byNew = mine(fresh);
    console.info(
      `[rolling] slot of ${n}: ${byOld.length} delivered by the ${PREVIOUS.version} worker (told to stop with ${stoppedAfter} in), ${byNew.length} by the new one`,
    );
    expect(stoppedAfter, "deliveries left for the new worker alone").toBeLessThan(n);
    expect(byNew.length, "delivered by the new worker").toBeGreaterThan(0);
    expect([...byOld, ...byNew].sort()).toEqual([...ids].sort());
    for (const [i, sub] of subs.entries())
      expect((await runtime.store.get(REF, sub.id))?.lastDelivery).toMatchObject({
        outcome: "delivered",
        messageTs: digestsIn(channels[i] as string)[0]?.ts,
      });
    expect([...failures(old), ...failures(fresh)]).toEqual([]);
  });

  it(`a ${PREVIOUS.version} web beside a new worker: the new worker answers the old web's hand-offs and delivers, once, the slot of a subscription the old web stored`, {
    timeout: PHASE_MS,
  }, async () => {
    deliverTo(webs.old as { port: number });
    // As a deploy that starts with the workers has it: no old worker left (an earlier phase stopped it).
    await workers.old?.stop();
    workers.new ??= await start("new", "worker");
    await handOffs({
      range: "last14d",
      asset: 80,
      time: quietTime(10),
      channel: DEMO.security,
      worker: workers.new,
    });
    expect([...failures(workers.new), ...failures(webs.old)]).toEqual([]);
  });
});
