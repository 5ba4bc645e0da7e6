import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { utcToday } from "../../sandbox/analytics/days.ts";
import { DEMO_API_KEY, startEmulator } from "../../sandbox/analytics/index.ts";
import { DEMO, startSlackStandIn } from "../../sandbox/slack/index.ts";
import { DIGEST_EVENT_TYPE } from "../../src/jobs/digest-post.ts";
import { createDeliveryQueue, JOB_NAME } from "../../src/jobs/queue.ts";
import { silentLogger } from "../../src/log.ts";
import { BUSY_TEXT } from "../../src/slack/frame/index.ts";
import { createApiKeyStore } from "../../src/store/api-keys.ts";
import { formatKeyring, generateKeyring } from "../../src/store/crypto.ts";
import { createKeyScheme } from "../../src/store/keys.ts";
import { newSubscriptionId } from "../../src/subscriptions/ids.ts";
import { createSubscriptionStore } from "../../src/subscriptions/store.ts";
import { quietTime, storedSubscription } from "../fixtures/subscription.ts";
import { type AppProcess, startWebProcess, startWorkerProcess } from "./app-processes.ts";
import { type Deployment, NAME, startDeployment } from "./deployment.ts";
import { createNet, type Net, removeLeftovers, worldPrefix } from "./netns.ts";

/**
 * One run of one fault: a Sentinel deployment (primary, replica, three sentinels), three delivery
 * workers and a web process, each on a host of its own; a slot of `digests` scheduled digests (one a
 * channel) queued at once and a slash command every 300 ms beside it; the fault once a third of the
 * slot is out; then every post counted on the Slack stand-in.
 */

export const FAULTS = ["split-brain", "pause", "half-open", "failovers", "lagging-replica"] as const;
export type Fault = (typeof FAULTS)[number];

/** Posts of an earlier slot's digests that came after that slot was counted, named by that slot. */
export interface LateFinding {
  fault: Fault;
  minReplicas: 0 | 1;
  /** Digests posted twice since: duplicates all the same. */
  duplicated: number;
  /** Digests counted lost that were posted since: late, not lost. */
  delivered: number;
}

export interface RunResult {
  fault: Fault;
  minReplicas: 0 | 1;
  confirm: "auto" | "off";
  digests: number;
  lost: number;
  duplicated: number;
  /**
   * Posts of the world's earlier slots' digests that came after those slots were counted (a rerun
   * that outlived its slot's wait), found by this slot.
   */
  late: LateFinding[];
  /** Seconds from the fault to the first post after its effect (the promotion, or the link back). */
  recoverySec: number | null;
  /** Digests of the slot not yet out when the fault's effect came (0: recovery had nothing to show). */
  undeliveredAtEffect: number;
  /** Seconds from the fault to the last post of the slot. */
  lastSec: number | null;
  /**
   * Seconds from the fault until no job of the slot was left (null: some still were when the run
   * stopped waiting). Past the last post while reruns of delivered digests (a job whose lock was
   * lost, a claim held for its lease) wait their turn to find their digest out already.
   */
  drainedSec: number | null;
  commands: number;
  /** Commands answered (their "busy" note aside). */
  answered: number;
  /** Commands whose answer was shown as two messages. */
  answeredTwice: number;
  /** What happened, for the record (promotion times, which worker was cut off). */
  notes: string[];
}

/** World `w`'s data dirs start with this and `w-`. */
const DIR_PREFIX = "insights-partition-w";
const SIGNING_SECRET = "partition-signing-secret";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Removes everything earlier runs of world `world` left: namespaces, their processes, data dirs. */
export function cleanUpEarlierRuns(world: number): void {
  removeLeftovers(worldPrefix(world));
  for (const name of readdirSync(tmpdir()))
    if (name.startsWith(`${DIR_PREFIX}${world}-`))
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
}

/** The app's budget for the history reads of a Marketplace app (Slack's Tier 3), as the stand-in applies it. */
const TIER_3_HISTORY = {
  "conversations.history": { points: 50, durationSec: 60 },
  "conversations.replies": { points: 50, durationSec: 60 },
};

/** A subscription of the world: its workspace, id and channel. */
interface Sub {
  teamId: string;
  id: string;
  channel: string;
}

const SERVERS: [string, string] = ["r0", "r1"];
const SENTINELS = ["s0", "s1", "s2"];
const WORKERS = ["w0", "w1", "w2"];
const NODES = [...SERVERS, ...SENTINELS, ...WORKERS, "web"];

/** Options of startWorld. */
export interface WorldOptions {
  /**
   * Which world [0]: worlds of different numbers run side by side on one machine (namespaces,
   * addresses and data dirs of their own); a start removes what an earlier run of its number left.
   */
  world?: number;
  /** Subscriptions (one a channel), each delivered once a slot. */
  digests: number;
  /** REDIS_CONFIRM_WRITES of the app [auto]. */
  confirm?: "auto" | "off";
  /** WORKER_CONCURRENCY of each of the three workers [20]. */
  concurrency?: number;
  /**
   * The delivery claim's lease and BullMQ's lock and stalled check [the product's: 120 s, 30 s, 30 s],
   * and Slack's history budget. A claim a cut-off worker took before the cut holds its delivery back
   * for its lease after the failover, a job whose lock was lost waits for the stalled check, and a
   * rerun that must look for its post in the channel waits its turn at conversations.history, once a
   * minute per workspace for apps outside the Marketplace (reruns in one workspace queue up minute
   * after minute): the short form shortens them to fit CI. The same checks run, sooner.
   */
  fast?: {
    leaseMs: number;
    lockDuration: number;
    stalledInterval: number;
    /** conversations.history and .replies as Slack serves Marketplace apps (Tier 3, about 50 a minute). */
    marketplaceHistory?: boolean;
  };
  log?: (line: string) => void;
}

/** Options of one slot. */
export interface SlotOptions {
  fault: Fault;
  /** The servers' min-replicas-to-write (0: Redis' default), set before the slot. */
  minReplicas: 0 | 1;
  /** How long the slot may take after the fault before its posts are counted [420 s]. */
  settleMs?: number;
  /** `failovers`: at most this many, `failoverGapMs` apart, while the slot is not out [12]. */
  maxFailovers?: number;
  /** `failovers`: the time from one promotion to the next failover [15 s]. */
  failoverGapMs?: number;
}

export interface World {
  slot(o: SlotOptions): Promise<RunResult>;
  close(): Promise<void>;
}

/**
 * The short form's waits, shorter than the product's (a 20 s claim lease rather than 2 min, 10 s job
 * locks checked every 5 s rather than 30 s, the channel history a Marketplace app may read rather than
 * a page a minute; four failovers 20 s apart): a delivery a fault interrupted waits them out, and CI
 * has minutes. 20 s apart, since posts resume once a replica holds the claims again (the demoted
 * primary rejoining), about 15 s after a promotion, and at 15 s apart a loaded machine sometimes lost
 * that race twice.
 */
export const SHORT_WAITS = {
  fast: { leaseMs: 20_000, lockDuration: 10_000, stalledInterval: 5_000, marketplaceHistory: true },
  slot: { maxFailovers: 4, failoverGapMs: 20_000 },
} as const;

/**
 * The deployment and the app on their hosts, with the subscriptions stored; each slot queues a new
 * period of all of them. Removes what earlier runs of its world left before it starts, and everything
 * it made when it closes, when the process exits or is stopped by a signal, and (through a watcher
 * outside the process, reaper.ts) when it is killed outright.
 */
export async function startWorld(o: WorldOptions): Promise<World> {
  const log = o.log ?? (() => undefined);
  const confirm = o.confirm ?? "auto";
  const world = o.world ?? 0;
  cleanUpEarlierRuns(world);
  const dir = mkdtempSync(join(tmpdir(), `${DIR_PREFIX}${world}-`));
  const closers: (() => Promise<unknown> | unknown)[] = [
    () => {
      // PARTITIONS_KEEP_LOGS=<dir>: the processes' logs are copied there before the data dir goes.
      const keep = process.env.PARTITIONS_KEEP_LOGS;
      if (keep)
        cpSync(dir, join(keep, `world-${Date.now()}`), {
          recursive: true,
          filter: (f) => !f.endsWith(".sock") && !f.endsWith(".aof") && !/appendonlydir/.test(f),
        });
      rmSync(dir, { recursive: true, force: true });
    },
  ];
  const close = async () => {
    for (const c of closers.splice(0).reverse())
      await Promise.resolve()
        .then(c)
        .catch(() => undefined);
  };
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  try {
    const net = createNet(NODES, { world, alsoRemove: [dir] });
    closers.push(() => net.destroy());
    const dep: Deployment = await startDeployment({ net, dir, servers: SERVERS, sentinels: SENTINELS });
    closers.push(() => dep.close());
    const today = utcToday();
    const emulator = await startEmulator({ today: () => today });
    closers.push(() => emulator.close());
    const slack = await startSlackStandIn({
      signingSecret: SIGNING_SECRET,
      appUrl: "http://127.0.0.1:9/",
      history: o.fast?.marketplaceHistory ? "marketplace" : "non_marketplace",
    });
    closers.push(() => slack.close());

    // 20 channels a workspace, each subscribed once, each workspace with the demo key.
    const keyring = generateKeyring(1);
    const id = Math.random().toString(36).slice(2, 8);
    const prefix = `part-${id}`;
    const queueName = `deliveries-${id}`;
    const interactiveQueue = `interactive-${id}`;
    const admin = dep.admin(await dep.primary());
    const apiKeys = createApiKeyStore({ redis: admin, keyring, prefix });
    const store = createSubscriptionStore({ redis: admin, keys: createKeyScheme({ prefix }) });
    const meta = () => ({ savedBy: DEMO.admin, savedAt: new Date().toISOString() });
    await apiKeys.save({ teamId: DEMO.teamId }, DEMO_API_KEY, meta());
    const tokens: Record<string, string> = {};
    const subs: Sub[] = [];
    for (let w = 0; subs.length < o.digests; w++) {
      const teamId = `T0PA${String(w).padStart(5, "0")}`;
      const token = `xoxb-${teamId.toLowerCase()}-standin`;
      const channels = Array.from(
        { length: Math.min(20, o.digests - subs.length) },
        (_, c) => `C${teamId.slice(1)}X${c}`,
      );
      slack.addWorkspace({
        teamId,
        name: teamId,
        botToken: token,
        users: [{ id: `U${teamId.slice(1)}A`, name: "admin", isAdmin: true }],
        channels: channels.map((cid, i) => ({ id: cid, name: `digests-${i}` })),
      });
      tokens[teamId] = token;
      await apiKeys.save({ teamId }, DEMO_API_KEY, meta());
      for (const channelId of channels) {
        const sub = storedSubscription({
          id: newSubscriptionId(),
          ref: { teamId },
          ownerId: `U${teamId.slice(1)}A`,
          channelId,
          schedule: { kind: "daily" },
          // Hours from now: the schedulers the app keeps for them never fire during a run.
          time: quietTime({ kind: "daily" }),
          drivers: false,
        });
        await store.insert(sub);
        subs.push({ teamId, id: sub.id, channel: channelId });
      }
    }

    const env: Record<string, string> = {
      REDIS_URL: dep.url,
      ENCRYPTION_KEYS: formatKeyring(keyring),
      ANALYTICS_GRAPHQL_URL: emulator.graphqlUrl,
      SLACK_API_URL: slack.apiUrl,
      SLACK_BOT_TOKEN: DEMO.botToken,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      PLATFORM_URL: emulator.appUrl,
      CHARTS: "off",
      WORKER_CONCURRENCY: String(o.concurrency ?? 20),
      // Two shared cores carry the whole deployment: the analytics service answers slowly at times.
      ANALYTICS_TIMEOUT_MS: "20000",
      REDIS_CONFIRM_WRITES: confirm,
      PORT: "0",
      HEALTH_PORT: "0",
      WORKER_NICE: "0",
      SLOT_WARM_LEAD_SECONDS: "0",
    };
    const ports = [Number(new URL(slack.apiUrl).port), Number(new URL(emulator.graphqlUrl).port)];
    const appOptions = {
      net,
      dir,
      env,
      prefix,
      queueName,
      interactiveQueue,
      tokens,
      forward: [...new Set(ports)],
      slackPort: ports[0] as number,
      policy: { attempts: 8, backoffMs: 1_000 },
      tuning: o.fast
        ? {
            claims: { leaseMs: o.fast.leaseMs },
            locks: { lockDuration: o.fast.lockDuration, stalledInterval: o.fast.stalledInterval },
            ...(o.fast.marketplaceHistory ? { pacing: { methods: TIER_3_HISTORY } } : {}),
          }
        : {},
    };
    const procs: AppProcess[] = [];
    closers.push(() => Promise.all(procs.map((p) => p.stop())));
    const [web, ...workers] = await Promise.all([
      startWebProcess("web", appOptions),
      ...WORKERS.map((w) => startWorkerProcess(w, appOptions)),
    ]);
    procs.push(web as AppProcess, ...(workers as AppProcess[]));
    slack.setAppUrl(`${(web as { url: string }).url}/slack/events`);
    log(`deployment and app up, ${subs.length} subscriptions`);

    const digestsOf = (s: Sub, period: string) =>
      slack
        .messages(s.channel)
        .filter(
          (m) =>
            m.metadata?.event_type === DIGEST_EVENT_TYPE &&
            (m.metadata.event_payload as { delivery?: string } | undefined)?.delivery === `${s.id}/${period}`,
        );
    const tally = (period: string) => {
      const counts = subs.map((s) => digestsOf(s, period).length);
      return {
        lost: counts.filter((c) => c === 0).length,
        duplicated: counts.reduce((t, c) => t + Math.max(0, c - 1), 0),
      };
    };
    // What each earlier slot's result counted: a post that came later (a rerun that outlived its
    // slot's wait) is reported by the slot that finds it, in the name of its own.
    const counted = new Map<string, { fault: Fault; minReplicas: 0 | 1; lost: number; duplicated: number }>();
    const lateFindings = (): LateFinding[] => {
      const found: LateFinding[] = [];
      for (const [period, c] of counted) {
        const now = tally(period);
        const duplicated = now.duplicated - c.duplicated;
        const delivered = c.lost - now.lost;
        if (duplicated || delivered)
          found.push({ fault: c.fault, minReplicas: c.minReplicas, duplicated, delivered });
        Object.assign(c, now);
      }
      return found;
    };
    let slotNo = 0;
    return {
      close,
      async slot(so) {
        slotNo++;
        // Whatever the last slot did, the next starts from a primary, a replica in sync and sentinels
        // that see both, with the setting asked for.
        await dep.settle();
        for (const server of SERVERS)
          await dep.admin(server).config("SET", "min-replicas-to-write", String(so.minReplicas));
        const primary = dep.admin(await dep.primary());
        const queue = createDeliveryQueue({
          connection: primary,
          prefix: "{insights}",
          name: queueName,
          logger: silentLogger(),
        });
        const slotStart = Date.now();
        const period = `202611${String(1 + Math.floor(slotNo / 24)).padStart(2, "0")}T${String(slotNo % 24).padStart(2, "0")}0000Z`;
        await queue.addBulk(
          subs.map((s) => ({
            name: JOB_NAME.catchUp,
            data: { sub: `-.${s.teamId}.${s.id}`, period, ch: s.channel },
            opts: {
              jobId: `p${slotNo}.${s.id}`,
              attempts: 8,
              backoff: { type: "exponential", delay: 1_000 },
            },
          })),
        );
        await queue.close();
        const digests = (s: Sub) => digestsOf(s, period);
        const delivered = () => subs.filter((s) => digests(s).length > 0).length;

        const commands: Promise<{ url: string | undefined; at: number; status?: number; error?: string }>[] =
          [];
        let typing = true;
        const typist = (async () => {
          for (let i = 0; typing; i++) {
            commands.push(
              slack
                .sendCommand({
                  teamId: DEMO.teamId,
                  userId: i % 2 ? DEMO.member : DEMO.admin,
                  channelId: DEMO.general,
                  text: `last${7 + (i % 20)}d`,
                })
                .then(
                  (r) => ({ url: r.responseUrl, at: Date.now(), status: r.status }),
                  (err: unknown) => ({
                    url: undefined,
                    at: Date.now(),
                    error: String((err as Error)?.message),
                  }),
                ),
            );
            await sleep(300);
          }
        })();
        const notes: string[] = [];
        let faultAt = Date.now();
        let effectAt = faultAt;
        try {
          await slack.waitFor(() => delivered() >= subs.length / 3, {
            timeoutMs: 300_000,
            what: "a third of the slot delivered",
          });
          ({ faultAt, effectAt } = await inject(
            so.fault,
            net,
            dep,
            () => delivered() === subs.length,
            notes,
            log,
            { max: so.maxFailovers ?? 12, gapMs: so.failoverGapMs ?? 15_000 },
          ));
        } finally {
          typing = false;
          await typist;
        }
        // Until every job of the slot has ended: a rerun that would post twice may come late (a job
        // whose lock was lost waits for the stalled check, a claim for its lease). The subscriptions'
        // own schedulers keep a job delayed until their next firing, hours away: not the slot's.
        const deadline = Date.now() + (so.settleMs ?? 420_000);
        const queueEmpty = async () => {
          try {
            const q = createDeliveryQueue({
              connection: dep.admin(await dep.primary()),
              prefix: "{insights}",
              name: queueName,
              logger: silentLogger(),
            });
            const jobs = await q.getJobs(["wait", "active", "delayed", "prioritized"]);
            await q.close();
            return jobs.every((j) => j.name === JOB_NAME.slot);
          } catch {
            return false;
          }
        };
        while (Date.now() < deadline && (delivered() < subs.length || !(await queueEmpty())))
          await sleep(1_000);
        const drainedAt = Date.now() < deadline ? Date.now() : null;
        // Room for a second post (a duplicate) to show up.
        await sleep(5_000);

        const sent = await Promise.all(commands);
        // Answered: any reply on the response_url but the ack's "busy" note (the answer may replace
        // that note). Answered twice: two separate messages shown (a redraw in place is not one).
        const isNote = (r: { outcome?: string; body?: unknown }) =>
          r.outcome === "ack" && JSON.stringify(r.body ?? "").includes(BUSY_TEXT);
        const replies = (url: string | undefined) =>
          url ? slack.responses(url).filter((r) => !isNote(r) && r.outcome !== "rejected") : [];
        const shown = (url: string | undefined) =>
          replies(url).filter((r) => r.outcome === "ephemeral" || r.outcome === "in_channel").length;
        await slack
          .waitFor(() => sent.every((c) => replies(c.url).length > 0), { timeoutMs: 60_000, what: "answers" })
          .catch(() => undefined);
        // Each command never answered, for its logs: when its ack came back, and how.
        for (const c of sent.filter((c) => replies(c.url).length === 0))
          notes.push(
            `not answered: acked at ${c.at} (${c.error ?? `HTTP ${c.status}`}), on its url: ${
              c.url
                ? slack
                    .responses(c.url)
                    .map((r) => `${r.outcome} ${r.error ?? ""} at ${r.at}`)
                    .join(", ") || "nothing"
                : "no url"
            }`,
          );
        // Each command shown twice, for its logs: when its messages were shown (epoch ms) and how each began.
        for (const c of sent.filter((c) => shown(c.url) > 1))
          notes.push(
            `shown twice: ${replies(c.url)
              .map(
                (r) =>
                  `${r.outcome} at ${r.at} "${String((r.body as { text?: unknown } | undefined)?.text ?? "").slice(0, 40)}"`,
              )
              .join(", ")}`,
          );
        const counts = subs.map((s) => digests(s).length);
        const posts = slack
          .calls({ method: "chat.postMessage", ok: true })
          .map((c) => c.at)
          .filter((at) => at >= slotStart)
          .sort((a, b) => a - b);
        const firstAfter = posts.find((at) => at > effectAt);
        const undeliveredAtEffect = subs.filter(
          (sub) => !digests(sub).some((m) => Number(m.ts) * 1000 <= effectAt),
        ).length;
        const result: RunResult = {
          fault: so.fault,
          minReplicas: so.minReplicas,
          confirm,
          digests: subs.length,
          lost: counts.filter((c) => c === 0).length,
          duplicated: counts.reduce((t, c) => t + Math.max(0, c - 1), 0),
          late: lateFindings(),
          recoverySec: firstAfter === undefined ? null : (firstAfter - faultAt) / 1000,
          undeliveredAtEffect,
          lastSec: posts.length ? ((posts.at(-1) as number) - faultAt) / 1000 : null,
          drainedSec: drainedAt === null ? null : (drainedAt - faultAt) / 1000,
          commands: sent.length,
          answered: sent.filter((c) => replies(c.url).length > 0).length,
          answeredTwice: sent.filter((c) => shown(c.url) > 1).length,
          notes,
        };
        counted.set(period, { fault: so.fault, minReplicas: so.minReplicas, ...tally(period) });
        log(`[${so.fault}] ${JSON.stringify(result)}`);
        return result;
      },
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Injects one fault and undoes it. Returns when it began and when its effect came (a promotion, or the
 * link back), from which recovery is counted.
 */
async function inject(
  fault: Fault,
  net: Net,
  dep: Deployment,
  slotDone: () => boolean,
  notes: string[],
  log: (line: string) => void,
  failovers: { max: number; gapMs: number },
): Promise<{ faultAt: number; effectAt: number }> {
  const old = await dep.primary();
  const replica = SERVERS.find((s) => s !== old) as string;
  const since = (t: number) => `${((Date.now() - t) / 1000).toFixed(1)} s`;
  switch (fault) {
    case "split-brain": {
      // w0 keeps its link to the old primary (and the sentinels); everyone else loses the primary.
      const faultAt = Date.now();
      for (const other of [replica, ...SENTINELS, "w1", "w2", "web"]) net.cut(old, other);
      await dep.waitForPromotion(old, 120_000);
      const effectAt = Date.now();
      notes.push(`promoted ${since(faultAt)} after the cut`);
      await sleep(10_000);
      net.healAll();
      notes.push(`healed ${since(faultAt)} after the cut`);
      log(`[split-brain] ${notes.join("; ")}`);
      return { faultAt, effectAt };
    }
    case "pause": {
      const p = dep.process(old);
      const faultAt = Date.now();
      let effectAt = faultAt;
      p.kill("SIGSTOP");
      try {
        await dep.waitForPromotion(old, 120_000);
        effectAt = Date.now();
      } finally {
        notes.push(`promoted ${since(faultAt)} after SIGSTOP`);
        // Paused on past the failover, then resumed: it comes back as a primary nobody names.
        await sleep(5_000);
        p.kill("SIGCONT");
        notes.push(`resumed ${since(faultAt)} after SIGSTOP`);
      }
      log(`[pause] ${notes.join("; ")}`);
      return { faultAt, effectAt };
    }
    case "half-open": {
      // Every app process loses both data servers silently; the sentinels still see the primary.
      const faultAt = Date.now();
      for (const app of [...WORKERS, "web"]) for (const s of SERVERS) net.cut(app, s);
      await sleep(30_000);
      net.healAll();
      const effectAt = Date.now();
      notes.push(`links back ${since(faultAt)} after the cut`);
      log(`[half-open] ${notes.join("; ")}`);
      return { faultAt, effectAt };
    }
    case "failovers": {
      const faultAt = Date.now();
      let effectAt = 0;
      let primary = old;
      for (let n = 0; n < failovers.max; n++) {
        // The last is followed by the slot's tail, which the caller watches.
        if (n > 0) await sleep(failovers.gapMs);
        if (slotDone()) break;
        await dep.admin("s0").call("SENTINEL", "FAILOVER", NAME);
        primary = await dep.waitForPromotion(primary, 60_000);
        effectAt ||= Date.now();
        notes.push(`failover ${n + 1} done ${since(faultAt)} in`);
      }
      log(`[failovers] ${notes.join("; ")}`);
      return { faultAt, effectAt };
    }
    case "lagging-replica": {
      // The replica stops taking the stream for 8 s; the primary dies while it is behind, and the
      // replica, far behind, is promoted once it answers again. The old primary then comes back (as a
      // replica, Sentinel's doing) so the deployment has a replica again.
      const r = dep.process(replica);
      const faultAt = Date.now();
      r.kill("SIGSTOP");
      await sleep(8_000);
      dep.process(old).kill("SIGKILL");
      r.kill("SIGCONT");
      await dep.waitForPromotion(old, 120_000);
      const effectAt = Date.now();
      notes.push(
        `replica frozen 8 s, then the primary killed; replica promoted ${since(faultAt)} after the freeze`,
      );
      await dep.restart(old);
      notes.push(`old primary back ${since(faultAt)} after the freeze`);
      log(`[lagging-replica] ${notes.join("; ")}`);
      return { faultAt, effectAt };
    }
  }
}
