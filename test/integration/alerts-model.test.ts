import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../../sandbox/slack/index.ts";
import { ACTION } from "../../src/ids.ts";
import { createKeyScheme } from "../../src/store/keys.ts";
import type { SnoozeKind } from "../../src/subscriptions/alerts.ts";
import { periodOf } from "../../src/subscriptions/period.ts";
import type { Subscription } from "../../src/subscriptions/types.ts";
import { backends } from "../setup/backends.ts";
import {
  type AlertModel,
  acknowledgeBy,
  checkAt,
  counts,
  latest,
  newModel,
  nextCheck,
  pauseBy,
  snoozeBy,
  voteBy,
} from "./alert-model.ts";
import { type AlertWorld, alertWorld, DAY, HOUR } from "./alert-world.ts";
import { REF, until } from "./worker-harness.ts";

/**
 * An alert's whole life against a small reference model (alert-model.ts), with fast-check's model-based
 * commands: the condition starting and stopping to hold, checks (fire, clear, fire again, the end of a
 * snooze), Acknowledge, Snooze, Pause and votes from its message, months passing (Redis' clock moved
 * on past every expiry), and a click whose edit reaches Slack after a check of the worker. After each
 * step the record, the episode's message as Slack shows it (state, buttons) and its thread must be
 * what the model says. Real worker, real Redis (one node and a cluster), the Slack stand-in; the
 * calendar is fixed and moved by the commands, never read from the machine.
 *
 * A failure prints fast-check's seed and path; `fc.assert(…, { seed, path })` replays it.
 */

interface Real {
  world: AlertWorld;
  sub: Subscription;
}

type Cmd = fc.AsyncCommand<AlertModel, Real>;

/** Starts on Monday 4 January 2027 at 00:30 UTC. */
const START = Date.UTC(2027, 0, 4, 0, 30);
const CHANGERS = [DEMO.admin, DEMO.owner] as const;
const VOTERS = [DEMO.admin, DEMO.owner, DEMO.member] as const;

const value = (r: Real, ep: string, extra?: string) => `${r.sub.id}|${ep}${extra ? `|${extra}` : ""}`;

/** The alert's messages in the channel, oldest first. */
function messagesOf(r: Real) {
  const all = r.world.harness.slack.messages(DEMO.security);
  const tops = all
    .filter((m) => m.threadTs === undefined && JSON.stringify(m.blocks ?? []).includes(`"${r.sub.id}|`))
    .sort((a, b) => Number(a.ts) - Number(b.ts));
  return { tops, replies: (ts: string) => all.filter((m) => m.threadTs === ts).length };
}

/** The record, the messages and the thread of the latest episode are what the model says. */
async function verify(m: AlertModel, r: Real): Promise<void> {
  const record = await r.world.record(r.sub);
  const ep = latest(m);
  const alert = record?.runs?.alert;
  expect(record?.status, "status").toBe(m.paused ? "paused" : "active");
  if (ep) {
    expect(alert?.state, "state").toBe(ep.firing ? "firing" : "clear");
    expect(alert?.episode?.id, "episode").toBe(ep.id);
    expect(alert?.acknowledged?.by, "acknowledged by").toBe(ep.ack);
    expect(alert?.snoozed?.kind, "snoozed").toBe(ep.firing ? ep.snooze?.kind : undefined);
  } else expect(alert?.state ?? "clear", "state").toBe("clear");
  const { up, down } = counts(m);
  expect(record?.runs?.feedback ?? { useful: 0, notUseful: 0 }, "votes").toEqual({
    useful: up,
    notUseful: down,
  });
  const { tops, replies } = messagesOf(r);
  expect(tops.length, "one message per episode").toBe(m.episodes.length);
  tops.forEach((msg, i) => {
    const e = m.episodes[i];
    if (!e) return;
    const drawn = JSON.stringify(msg.blocks);
    const where = `episode ${i + 1} of ${m.episodes.length}`;
    const last = i === m.episodes.length - 1;
    expect(drawn.includes("*Firing*"), `${where} drawn firing`).toBe(e.firing);
    expect(drawn.includes("*Cleared*"), `${where} drawn cleared`).toBe(!e.firing);
    expect(drawn.includes(`*Acknowledged* by <@${e.ack}>`), `${where} drawn acknowledged`).toBe(
      e.ack !== undefined,
    );
    expect(drawn.includes("*Snoozed*"), `${where} drawn snoozed`).toBe(e.firing && e.snooze !== undefined);
    const live = e.firing && !(last && m.paused);
    expect(drawn.includes(ACTION.alertAcknowledge), `${where} Acknowledge shown`).toBe(live && !e.ack);
    expect(drawn.includes(ACTION.alertSnooze), `${where} Snooze shown`).toBe(live);
    if (last) {
      expect(drawn.includes("*Alert paused*"), `${where} drawn paused`).toBe(m.paused);
      expect(drawn.includes(ACTION.alertPause), `${where} Pause shown`).toBe(!m.paused);
    }
    expect(replies(msg.ts), `${where}: replies in its thread`).toBe(e.replies);
  });
}

class PassTime implements Cmd {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(m: AlertModel, r: Real) {
    m.now += this.ms;
    r.world.cal.set(m.now);
    await r.world.age(this.ms);
    await verify(m, r);
  }
  toString = () => `pass ${this.ms % DAY === 0 ? `${this.ms / DAY}d` : `${this.ms / HOUR}h`}`;
}

class SetData implements Cmd {
  constructor(readonly met: boolean) {}
  check = (m: Readonly<AlertModel>) => m.met !== this.met;
  async run(m: AlertModel, r: Real) {
    m.met = this.met;
    await r.world.data(this.met);
  }
  toString = () => (this.met ? "condition holds" : "condition stops");
}

class Check implements Cmd {
  check = () => true;
  async run(m: AlertModel, r: Real) {
    const at = nextCheck(m);
    await r.world.check(r.sub, at);
    checkAt(m, at, periodOf(at));
    await verify(m, r);
  }
  toString = () => "check";
}

type Click = { kind: "ack"; by: string } | { kind: "snooze"; snooze: SnoozeKind; by: string };

const clickText = (c: Click) => (c.kind === "ack" ? `ack by ${c.by}` : `snooze ${c.snooze} by ${c.by}`);

/** The click on the latest episode's message; what the model says it is told. */
async function press(m: AlertModel, r: Real, c: Click): Promise<{ told: string[]; expected: string[] }> {
  const ep = latest(m)?.id ?? "";
  if (c.kind === "ack") {
    const told = r.world.acknowledge(c.by, value(r, ep));
    return { expected: acknowledgeBy(m, c.by), told: await told };
  }
  const told = r.world.snooze(c.by, value(r, ep, c.snooze[0]));
  return { expected: snoozeBy(m, c.snooze, c.by), told: await told };
}

class Press implements Cmd {
  constructor(readonly click: Click) {}
  check = (m: Readonly<AlertModel>) => m.episodes.length > 0;
  async run(m: AlertModel, r: Real) {
    const { told, expected } = await press(m, r, this.click);
    expect(told).toEqual(expected);
    await verify(m, r);
  }
  toString = () => clickText(this.click);
}

/** A member may read the alert but not change it: refused, nothing changes. */
class MemberAck implements Cmd {
  check = (m: Readonly<AlertModel>) => m.episodes.length > 0;
  async run(m: AlertModel, r: Real) {
    await expect(r.world.acknowledge(DEMO.member, value(r, latest(m)?.id ?? ""))).rejects.toThrow(
      /Only the owner/,
    );
    await verify(m, r);
  }
  toString = () => "ack by a member";
}

class Pause implements Cmd {
  constructor(readonly by: string) {}
  // Late in a life: the checks stop once it is paused.
  check = (m: Readonly<AlertModel>) => m.episodes.length > 0 && !m.paused && m.checks >= PAUSE_AFTER;
  async run(m: AlertModel, r: Real) {
    expect(await r.world.pause(this.by, value(r, latest(m)?.id ?? ""))).toEqual([]);
    pauseBy(m);
    await verify(m, r);
  }
  toString = () => `pause by ${this.by}`;
}

class Vote implements Cmd {
  constructor(
    readonly pick: number,
    readonly by: string,
    readonly useful: boolean,
  ) {}
  check = (m: Readonly<AlertModel>) => m.episodes.length > 0;
  async run(m: AlertModel, r: Real) {
    const i = this.pick % m.episodes.length;
    const told = await r.world.feedback(this.by, value(r, m.episodes[i]?.id ?? "", this.useful ? "+" : "-"));
    expect(told).toEqual(voteBy(m, i, this.by, this.useful));
    await verify(m, r);
  }
  toString = () => `vote ${this.useful ? "+" : "-"} by ${this.by} on episode #${this.pick}`;
}

/**
 * A click whose edit is still on its way to Slack while the worker's next check runs: the edit is
 * held at the stand-in until the check is done, or until the check waits to draw (its transition
 * decided, the message's draw lock held by the click). The click's script ran first: the model takes
 * the click, then the check.
 */
class RaceCheck implements Cmd {
  constructor(readonly click: Click) {}
  check = (m: Readonly<AlertModel>) => latest(m)?.firing === true && !m.paused;
  async run(m: AlertModel, r: Real) {
    const { harness } = r.world;
    const keys = createKeyScheme({ prefix: harness.prefix });
    const slow = harness.slack.holdNext("chat.update");
    const clicked = press(m, r, this.click);
    // A click that changes nothing draws nothing: then nothing is held.
    await Promise.race([slow.arrived, clicked]);
    const at = nextCheck(m);
    const check = r.world.startCheck(r.sub, at);
    let checked = false;
    void check.done.then(
      () => {
        checked = true;
      },
      () => {
        checked = true;
      },
    );
    await until(
      async () =>
        checked ||
        ((await harness.redis.exists(keys.lock(REF, `alert-draw-${r.sub.id}`))) === 1 &&
          (await harness.redis.hexists(keys.subscription(REF, r.sub.id), "aq")) === 1),
      30_000,
      "the check",
    );
    slow.release();
    const { told, expected } = await clicked;
    await check.done;
    expect(told).toEqual(expected);
    checkAt(m, at, periodOf(at));
    await verify(m, r);
  }
  toString = () => `${clickText(this.click)} racing a check`;
}

const changer = fc.constantFrom(...CHANGERS);
const click: fc.Arbitrary<Click> = fc.oneof(
  changer.map((by) => ({ kind: "ack" as const, by })),
  fc
    .record({ snooze: fc.constantFrom<SnoozeKind>("hour", "day", "week", "clear"), by: changer })
    .map((s) => ({ kind: "snooze" as const, ...s })),
);

const commands = [
  fc
    .oneof(
      fc.integer({ min: 1, max: 30 }).map((h) => h * HOUR),
      fc.integer({ min: 1, max: 45 }).map((d) => d * DAY),
    )
    .map((ms) => new PassTime(ms)),
  fc.boolean().map((met) => new SetData(met)),
  fc.constant(new Check()),
  fc.constant(new Check()),
  click.map((c) => new Press(c)),
  click.map((c) => new RaceCheck(c)),
  fc.constant(new MemberAck()),
  fc
    .record({ pick: fc.nat(), by: fc.constantFrom(...VOTERS), useful: fc.boolean() })
    .map((v) => new Vote(v.pick, v.by, v.useful)),
  changer.map((by) => new Pause(by)),
];

/** Runs and commands per run: 13–19 s per backend on a shared 2-core machine. */
const RUNS = 25;
const MAX_COMMANDS = 40;
/** Checks an alert has made before a Pause may be pressed. */
const PAUSE_AFTER = 8;

describe.each(backends())("an alert's life against its model ($name)", ({ url }) => {
  let world: AlertWorld;
  beforeAll(async () => {
    world = await alertWorld({ redisUrl: url, start: START });
  }, 60_000);
  afterAll(() => world?.close());

  it("fire, acknowledge, snooze, clear, fire again, vote and pause, over months, clicks racing checks", {
    timeout: 120_000,
  }, async () => {
    // What the runs went through, so a change that leaves every life trivial is noticed.
    const seen = { checks: 0, episodes: 0, cleared: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.commands(commands, { maxCommands: MAX_COMMANDS, size: "max" }),
        async (met, cmds) => {
          world.cal.set(START);
          await world.data(met);
          const sub = await world.newAlert();
          const model = newModel(START, met);
          await fc.asyncModelRun(() => ({ model, real: { world, sub } }), cmds);
          seen.checks += model.checks;
          seen.episodes += model.episodes.length;
          seen.cleared += model.episodes.filter((e) => !e.firing).length;
        },
      ),
      { numRuns: RUNS, endOnFailure: true },
    );
    expect(seen.checks).toBeGreaterThan(RUNS);
    expect(seen.episodes).toBeGreaterThan(0);
    expect(seen.cleared).toBeGreaterThan(0);
  });
});
