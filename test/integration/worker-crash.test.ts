import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, describe, expect, inject, it } from "vitest";
import { type PrivateRedis, startPrivateRedis } from "../../sandbox/redis.ts";
import { DEMO } from "../../sandbox/slack/index.ts";
import { schedulerIdFor } from "../../src/subscriptions/ids.ts";
import type { Subscription } from "../../src/subscriptions/types.ts";
import { CRASH, type Harness, OWNER, REF, sleep, startHarness, until } from "./worker-harness.ts";

const ROOT = new URL("../../", import.meta.url);
let h: Harness | undefined;
let privateRedis: PrivateRedis | undefined;
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  await h?.close();
  h = undefined;
  await privateRedis?.destroy();
  privateRedis = undefined;
});

/** Resolves when the child prints `marker` on stdout. */
function printed(child: ChildProcess, marker: string, timeoutMs = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(
      () => reject(new Error(`child did not print "${marker}": ${out}${err}`)),
      timeoutMs,
    );
    child.stderr?.on("data", (d: Buffer) => {
      err += d.toString();
    });
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes(marker)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`child exited (${code}) before "${marker}": ${out}${err}`));
    });
  });
}

const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.exitCode !== null || child.signalCode !== null
      ? resolve({ code: child.exitCode, signal: child.signalCode })
      : child.once("exit", (code, signal) => resolve({ code, signal })),
  );

/** A worker in its own process, as `startWorker` runs it, with the harness's fast settings. */
async function spawnWorker(harness: Harness, concurrency: number): Promise<ChildProcess> {
  const code = `
    const root = process.env.CHILD_ROOT;
    const o = JSON.parse(process.env.CHILD_OPTIONS);
    const { loadConfig } = await import(root + "src/config.ts");
    const { startWorker } = await import(root + "src/app/worker.ts");
    const { silentLogger } = await import(root + "src/log.ts");
    await startWorker({ config: loadConfig("worker", o.env), logger: silentLogger(), prefix: o.prefix, queueName: o.queueName, ...o.tuning });
    process.stdout.write("ready\\n");`;
  const options = {
    env: { ...harness.env, WORKER_CONCURRENCY: String(concurrency) },
    prefix: harness.prefix,
    queueName: harness.queueName,
    tuning: CRASH,
  };
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", CHILD_ROOT: ROOT.href, CHILD_OPTIONS: JSON.stringify(options) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  await printed(child, "ready");
  return child;
}

const pending = async (harness: Harness) =>
  Object.values(await harness.claims()).filter((v) => v.startsWith("p|")).length;
const withoutOutcome = (subs: Subscription[]) => subs.map(({ lastDelivery: _l, ...rest }) => rest);

describe("crashes", () => {
  it("a worker SIGKILLed mid-delivery: another worker delivers every digest, each exactly once", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const harness = h;
    const channels = Array.from({ length: 6 }, (_, i) => `C0KILL00${i + 1}`);
    for (const [i, id] of channels.entries())
      harness.slack.addChannel(DEMO.teamId, { id, name: `kill-${i + 1}` });
    const { subscriptions } = harness.producer();
    const subs = [];
    for (const [i, channelId] of channels.entries())
      subs.push(
        (
          await subscriptions.create(
            REF,
            { channelId, schedule: { kind: "daily" }, tz: "UTC", range: `last${7 + i}d` },
            OWNER,
          )
        ).subscription,
      );
    // The first analytics request of the doomed worker takes 4 s: every delivery is mid-flight when it dies.
    harness.emulator.inject({ kind: "latency", ms: 4_000 }, 1);
    const doomed = await spawnWorker(harness, 8);
    for (const sub of subs) await subscriptions.sendNow(REF, sub.id);
    await until(async () => (await pending(harness)) === subs.length, 10_000, "all deliveries claimed");
    doomed.kill("SIGKILL");
    expect(await exited(doomed)).toMatchObject({ signal: "SIGKILL" });

    await spawnWorker(harness, 8);
    await until(() => channels.every((c) => harness.slack.messages(c).length > 0), 20_000, "every digest");
    await sleep(1_500);
    const counts = channels.map((c) => harness.slack.messages(c).length);
    const duplicates = counts.reduce((t, n) => t + Math.max(0, n - 1), 0);
    const lost = counts.filter((n) => n === 0).length;
    console.info(
      `[kill] ${subs.length} deliveries in flight at SIGKILL: ${duplicates} duplicates, ${lost} lost`,
    );
    expect({ duplicates, lost }).toEqual({ duplicates: 0, lost: 0 });
  });

  it("Redis killed and restarted during a run (AOF): subscriptions and schedulers survive, the run is delivered once", async () => {
    privateRedis = await startPrivateRedis();
    h = await startHarness({ redisUrl: privateRedis.url });
    const harness = h;
    const { subscriptions, queue } = harness.producer();
    await harness.worker({ locks: CRASH.locks, policy: { attempts: 5, backoffMs: 200 } });
    const a = (
      await subscriptions.create(
        REF,
        { channelId: DEMO.general, schedule: { kind: "daily" }, tz: "UTC" },
        OWNER,
      )
    ).subscription;
    const b = (
      await subscriptions.create(
        REF,
        {
          channelId: DEMO.security,
          schedule: { kind: "weekly", days: ["mon", "fri"] },
          tz: "America/New_York",
        },
        OWNER,
      )
    ).subscription;
    const c = (
      await subscriptions.create(
        REF,
        { channelId: DEMO.security, schedule: { kind: "daily" }, tz: "UTC" },
        OWNER,
      )
    ).subscription;
    await subscriptions.pause(REF, c.id);
    const before = await subscriptions.list(REF);
    const schedulerIds = async () => (await queue.getJobSchedulers()).map((s) => s.key).sort();
    const schedulersBefore = await schedulerIds();
    expect(schedulersBefore).toEqual([schedulerIdFor(REF, a.id), schedulerIdFor(REF, b.id)].sort());

    harness.emulator.inject({ kind: "latency", ms: 1_800 }, 1);
    await subscriptions.sendNow(REF, a.id);
    await until(async () => (await pending(harness)) === 1, 5_000, "the delivery in flight");
    // appendfsync everysec: give the last writes their second to reach the disk, as a real crash would not wait.
    await sleep(1_100);
    await privateRedis.stop("SIGKILL");
    await privateRedis.restart();

    await until(
      () => harness.slack.messages(DEMO.general).length > 0,
      15_000,
      "the digest after the restart",
    );
    await sleep(500);
    expect(harness.slack.messages(DEMO.general)).toHaveLength(1);
    expect(withoutOutcome(await subscriptions.list(REF))).toEqual(withoutOutcome(before));
    expect(await schedulerIds()).toEqual(schedulersBefore);
    expect(await subscriptions.reconcile()).toEqual({ upserted: 2, removed: 0 });
  });
});

describe("the worker command", () => {
  it("SIGTERM lets the delivery in flight finish, then exits 0; a second SIGTERM exits at once", async () => {
    privateRedis = await startPrivateRedis();
    // The CLI uses the default key prefix and queue name: fine on a Redis of its own.
    h = await startHarness({ redisUrl: privateRedis.url, prefix: "insights", queueName: "deliveries" });
    const harness = h;
    const { subscriptions } = harness.producer();
    const sub = (
      await subscriptions.create(
        REF,
        { channelId: DEMO.general, schedule: { kind: "daily" }, tz: "UTC" },
        OWNER,
      )
    ).subscription;
    const cli = () => {
      const child = spawn(process.execPath, ["bin/insights-digest.js", "worker"], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? "", ...harness.env, HEALTH_PORT: "0", LOG_LEVEL: "info" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.push(child);
      // Drain the pipes so a chatty child never blocks on a full one.
      child.stdout?.resume();
      child.stderr?.resume();
      return child;
    };

    harness.emulator.inject({ kind: "latency", ms: 1_500 }, 1);
    const graceful = cli();
    await subscriptions.sendNow(REF, sub.id);
    await until(async () => (await pending(harness)) === 1, 15_000, "the delivery in flight");
    graceful.kill("SIGTERM");
    expect(await exited(graceful)).toEqual({ code: 0, signal: null });
    expect(harness.slack.messages(DEMO.general)).toHaveLength(1);

    harness.emulator.inject({ kind: "latency", ms: 10_000 }, 1);
    const impatient = cli();
    await subscriptions.sendNow(REF, sub.id);
    await until(async () => (await pending(harness)) === 1, 15_000, "the second delivery in flight");
    const t0 = Date.now();
    const draining = printed(impatient, "finishing in-flight work");
    impatient.kill("SIGTERM");
    await draining;
    impatient.kill("SIGTERM");
    expect(await exited(impatient)).toEqual({ code: 130, signal: null });
    expect(Date.now() - t0).toBeLessThan(2_000);
  });
});
