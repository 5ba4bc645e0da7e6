import {
  alertEpisodeMessage,
  alertHead,
  alertMessage,
  type EpisodeEvent,
} from "../../templates/alert-message.ts";
import type { Message } from "../blockkit/types.ts";
import { explainAlert, explainTarget } from "../digests/alert-explain.ts";
import { isAppError } from "../errors.ts";
import type { DigestView } from "../insights/types.ts";
import { sendWithFallback } from "../slack/refusal.ts";
import { type AlertPost, alertStep } from "../subscriptions/alerts.ts";
import {
  type Condition,
  explainedMeasure,
  incomplete,
  judge,
  type Verdict,
} from "../subscriptions/conditions.ts";
import { periodTime } from "../subscriptions/period.ts";
import { alertField, pendingField, snoozeField } from "../subscriptions/run-state.ts";
import { conditionOf } from "../subscriptions/run-verdict.ts";
import { scheduleText } from "../subscriptions/schedule.ts";
import type { SubscriptionStore } from "../subscriptions/store.ts";
import type { Subscription } from "../subscriptions/types.ts";
import { redrawEpisode, replyInThread, type SlackCall } from "./alert-episode.ts";
import type { AlertStateStore, EpisodeBody } from "./alert-state.ts";
import type { RunFields } from "./begin.ts";
import { later } from "./delivery-job.ts";
import { buildView, deliveryMetadata, runAssetIds } from "./digest-post.ts";
import { done, type Run, type RunDeps, type RunOutcome, recorder, takeover } from "./digest-run.ts";
import { SlackCallError } from "./slack-api.ts";

/** What an alert run needs besides a digest run's dependencies. */
export interface AlertDeps extends RunDeps {
  alerts: AlertStateStore;
  store: Pick<SubscriptionStore, "get">;
}

/** Races with other checks of the same alert before this one gives way and comes back. */
const TRIES = 3;

interface Checked {
  view: DigestView;
  verdict: Verdict;
  condition: Condition | null;
}

async function check(deps: AlertDeps, run: Run, sub: Subscription): Promise<Checked> {
  const condition = conditionOf(sub);
  const view = await buildView(
    { ...deps, digests: run.digests },
    sub,
    periodTime(run.period) ?? deps.clock(),
  );
  // An alert always has a condition (validation refuses one without); a record that lost it checks nothing.
  const verdict = condition
    ? judge(condition, view.digest, [], view.weekday)
    : { met: false, reason: "no condition" };
  return { view, verdict, condition };
}

/**
 * The data cannot decide: a gap could make a number cross the line either way, and a day or a rate
 * with nothing to judge it by (an unknown verdict) is no verdict.
 */
const undecided = (c: Checked) =>
  c.verdict.unknown === true || (c.condition?.kind !== "unusual" && incomplete(c.view.digest));

/** What the record says after a transition is told (`ts`: the message that told it). */
function toldFields(kind: AlertPost | "check", period: string, ts: string): RunFields {
  switch (kind) {
    case "check":
      return {};
    case "fire":
      return { set: { as: "f", ep: period, em: ts }, clear: ["aq", "ek", "ez"] };
    case "clear":
      return { set: { as: "c" }, clear: ["aq", "ez"] };
    case "resume":
      return { set: { as: "f" }, clear: ["aq", "ez"] };
  }
}

/** What moved the alert, or why that could not be had. */
type Explained = Pick<Parameters<typeof alertHead>[0], "explanation" | "unexplained">;

/** The drivers of what the check compares (the day against a usual one, or the range against the one before). */
async function explainChecked(
  deps: AlertDeps,
  run: Run,
  sub: Subscription,
  checked: Checked,
): Promise<Explained> {
  const asOf = periodTime(run.period) ?? deps.clock();
  const target = explainTarget(
    checked.view.digest.range,
    explainedMeasure(checked.condition),
    checked.verdict.unusual,
  );
  try {
    const who = {
      ref: sub.ref,
      tz: sub.tz,
      now: asOf,
      assetIds: runAssetIds(sub, checked.view),
      scannerIds: sub.scannerIds,
    };
    return { explanation: await explainAlert(run.digests, who, target) };
  } catch (err) {
    deps.logger.warn({ err, subId: sub.id }, "the alert's breakdown failed; it goes out without one");
    return {
      unexplained:
        isAppError(err) && err.code === "drivers_unavailable"
          ? err.message
          : "the analytics service did not answer the breakdown in time.",
    };
  }
}

/**
 * The message of a new episode: the verdict, the numbers and what moved it (unless the subscription
 * leaves its drivers out), kept so later changes redraw it. `plain` is the same without a chart
 * block, for when Slack refuses the chart.
 */
async function fireBody(
  deps: AlertDeps,
  run: Run,
  sub: Subscription,
  checked: Checked,
  known?: Explained,
): Promise<{ body: EpisodeBody; plain: EpisodeBody }> {
  const explained = sub.drivers === false ? {} : (known ?? (await explainChecked(deps, run, sub, checked)));
  const target = explainTarget(
    checked.view.digest.range,
    explainedMeasure(checked.condition),
    checked.verdict.unusual,
  );
  const bodyOf = (view: DigestView): EpisodeBody => {
    const { head, text } = alertHead({
      reason: checked.verdict.reason,
      condition: sub.condition ?? "",
      view,
      schedule: scheduleText(sub.schedule, sub.time, sub.tz),
      subId: sub.id,
      ...explained,
    });
    return { ep: run.period, channel: sub.channelId, head, text, explain: target };
  };
  const body = bodyOf(checked.view);
  await deps.alerts.saveBody(sub.ref, sub.id, body);
  return { body, plain: bodyOf({ ...checked.view, chartStyle: "off" }) };
}

/**
 * Before an `unusual` alert changes state, the silences of single scanners and asset groups (its
 * drivers' data gaps) are read too: a day one of them was silent may look unusually low, or usual,
 * only because data is missing. The verdict with them, and what moved it.
 */
async function withSliceGaps(
  deps: AlertDeps,
  run: Run,
  sub: Subscription,
  checked: Checked,
): Promise<{ checked: Checked; explained: Explained }> {
  const explained = await explainChecked(deps, run, sub, checked);
  const gaps = explained.explanation?.drivers.gaps ?? [];
  if (!checked.condition || !checked.view.weekday || gaps.length === 0) return { checked, explained };
  const weekday = { ...checked.view.weekday, sliceGaps: gaps };
  return {
    checked: { ...checked, verdict: judge(checked.condition, checked.view.digest, [], weekday) },
    explained,
  };
}

/**
 * Posts a message of its own (a test send, or an all-clear with no episode message to edit); a
 * refused chart block costs the message its chart, never the message.
 */
function postOneOff<R>(
  post: (message: Message) => Promise<R>,
  kind: "clear" | "check",
  sub: Subscription,
  checked: Checked,
): Promise<R> {
  const messageOf = (view: DigestView) =>
    alertMessage({
      kind,
      reason: checked.verdict.reason,
      condition: sub.condition ?? "",
      view,
      schedule: scheduleText(sub.schedule, sub.time, sub.tz),
      subId: sub.id,
      met: checked.verdict.met,
    });
  return sendWithFallback(
    messageOf(checked.view),
    () => messageOf({ ...checked.view, chartStyle: "off" }),
    post,
  );
}

/** Answers after which the episode's message cannot be edited or replied under. */
const GONE = new Set(["message_not_found", "cant_update_message", "thread_not_found", "channel_not_found"]);

/**
 * Tells the end of an episode (or that a snooze ended while it still holds) on the episode's own
 * message: edited in place, and a reply in its thread. Without a message to edit (an episode from
 * before messages were kept, or one deleted since), the all-clear goes out as a message of its own.
 */
async function tellChange(
  deps: AlertDeps,
  run: Run,
  sub: Subscription,
  kind: "clear" | "resume",
  checked: Checked,
  threadTs: string | undefined,
): Promise<string> {
  const call: SlackCall = (method, args) => deps.slack.call(run.botToken, method, args);
  const at = (periodTime(run.period) ?? deps.clock()).toISOString();
  const episode = sub.runs?.alert?.episode;
  const body = threadTs && episode ? await deps.alerts.body(sub.ref, sub.id, episode.id) : null;
  if (threadTs && episode && body) {
    if (kind === "clear")
      await deps.alerts.saveBody(sub.ref, sub.id, {
        ...body,
        cleared: { at, reason: checked.verdict.reason },
      });
    const event: EpisodeEvent = {
      kind: kind === "clear" ? "cleared" : "resumed",
      at,
      reason: checked.verdict.reason,
    };
    try {
      // Drawn from the record as it stands (this check's transition shown as told), so a click drawn
      // meanwhile is never left on top of it.
      const drawn = await redrawEpisode(deps.alerts, call, sub.ref, sub.id, episode.id);
      if (drawn) return await replyInThread(call, drawn, event, deliveryMetadata(run.deliveryId));
    } catch (err) {
      if (!(err instanceof SlackCallError && GONE.has(err.slackError))) throw err;
      deps.logger.warn(
        { subId: sub.id, code: err.slackError },
        "the episode's message is gone; posting anew",
      );
    }
  }
  const reply = await postOneOff(
    (message) =>
      call("chat.postMessage", {
        channel: sub.channelId,
        ...message,
        unfurl_links: false,
        metadata: deliveryMetadata(run.deliveryId),
      }),
    "clear",
    sub,
    checked,
  );
  return String(reply.ts ?? "");
}

/** Posts what the run tells (the run's claim confirmed first) and records the state it tells. */
async function announce(
  deps: AlertDeps,
  run: Run,
  sub: Subscription,
  kind: AlertPost | "check",
  checked: Checked,
  explained?: Explained,
): Promise<RunOutcome> {
  const { period } = run;
  const record = recorder(deps, run);
  const threadTs = kind === "clear" || kind === "resume" ? sub.runs?.alert?.episode?.ts : undefined;
  const seen = await takeover(deps, run, threadTs, async (ts) => {
    await record("delivered", { messageTs: ts }, toldFields(kind, period, ts));
    return { status: "delivered", period, ts };
  });
  if (seen) return seen;
  if (!(await deps.claims.confirm(sub.ref, sub.id, period, run.claim.token)))
    return done({ status: "skipped", why: "lease_lost", period });
  run.posting = true;
  let ts: string;
  if (kind === "clear" || kind === "resume") ts = await tellChange(deps, run, sub, kind, checked, threadTs);
  else {
    const asOf = periodTime(period) ?? deps.clock();
    const post = (message: Message) =>
      deps.slack.call(run.botToken, "chat.postMessage", {
        channel: sub.channelId,
        ...message,
        unfurl_links: false,
        metadata: deliveryMetadata(run.deliveryId),
      });
    let reply: Record<string, unknown>;
    if (kind === "fire") {
      const { body, plain } = await fireBody(deps, run, sub, checked, explained);
      const firing = { id: period, firedAt: asOf.toISOString(), state: "firing" as const };
      let refused = false;
      // A refused chart block costs the alert its chart, never the alert; its redraws go without it.
      reply = await sendWithFallback(
        alertEpisodeMessage(body.head, body.text, sub.id, firing),
        () => alertEpisodeMessage(plain.head, plain.text, sub.id, firing),
        post,
        () => {
          refused = true;
        },
      );
      if (refused) await deps.alerts.saveBody(sub.ref, sub.id, plain);
    } else {
      reply = await postOneOff(post, "check", sub, checked);
    }
    ts = String(reply.ts ?? "");
  }
  return {
    kind: "posted",
    async record() {
      await record("delivered", { messageTs: ts }, toldFields(kind, period, ts));
      deps.logger.info({ subId: sub.id, period, ts, kind }, "alert posted");
      return { status: "delivered", period, ts };
    },
  };
}

/** The `ez` value the record holds for the snooze it read ('' for none). */
function snoozeRead(sub: Subscription): string {
  const s = sub.runs?.alert?.snoozed;
  return s ? snoozeField(s.kind, s.until ? new Date(s.until) : undefined, s.by, new Date(s.at)) : "";
}

/**
 * One check of an alert subscription. The condition is read against the state last told in the
 * conversation (alerts.ts): a new episode posts its message; its end, and a snooze that ends while
 * it still holds, edit that message and reply in its thread; a snoozed episode says nothing.
 * Exactly once across workers and restarts: the period's claim keeps two runs of one check apart;
 * the state's script keeps checks of different periods apart (a late, older check changes nothing);
 * a transition is noted as pending before its post and settled with the post's record, so a crash
 * between the two is resumed by the retry of that same check, and a later check waits for it.
 */
export async function runAlert(deps: AlertDeps, run: Run): Promise<RunOutcome> {
  const { period } = run;
  let sub = run.sub;
  if (run.isTest) return announce(deps, run, sub, "check", await check(deps, run, sub));
  const record = recorder(deps, run);
  for (let i = 0; i < TRIES; i++) {
    const alert = sub.runs?.alert;
    const pending = alert?.pending;
    if (pending?.period === period)
      return announce(deps, run, sub, pending.post, await check(deps, run, sub));
    if (pending) {
      const earlier = await deps.claims.peek(sub.ref, sub.id, pending.period);
      if (earlier.kind === "pending") {
        // The earlier check is still posting (or may have): its transition is told first.
        await deps.claims.release(sub.ref, sub.id, period, run.claim.token, { posted: false });
        return later(run.job, run.jobToken, earlier.retryInMs);
      }
      const value = pendingField(pending.period, pending.post);
      const told = earlier.kind === "done" && earlier.outcome === "delivered";
      await deps.alerts.settle(
        sub.ref,
        sub.id,
        value,
        told ? alertField(pending.post === "clear" ? "clear" : "firing") : "",
      );
    } else if (alert?.applied && alert.applied >= period) {
      await deps.claims.finish(sub.ref, sub.id, period, "skipped", "superseded");
      return done({ status: "skipped", why: "superseded", period });
    } else {
      let checked = await check(deps, run, sub);
      const at = periodTime(period) ?? deps.clock();
      let step = alertStep(alert?.state, checked.verdict.met, alert?.snoozed, at);
      let explained: Explained | undefined;
      if (step.post && checked.condition?.kind === "unusual" && !undecided(checked)) {
        ({ checked, explained } = await withSliceGaps(deps, run, sub, checked));
        step = alertStep(alert?.state, checked.verdict.met, alert?.snoozed, at);
      }
      if (undecided(checked)) {
        // The alert says nothing until the data can decide.
        const state = alert?.state === "firing" ? "firing" : "clear";
        // An unknown verdict says itself why it is no verdict ("not judged …: a data gap", "fix rate unknown …").
        const why = checked.verdict.unknown
          ? checked.verdict.reason
          : `data incomplete (${checked.verdict.reason})`;
        await record("skipped", { reason: `${why}; the alert stays ${state}` });
        return done({ status: "skipped", why: "condition_not_met", period });
      }
      const read = alert && !alert.untold ? alertField(alert.state) : "";
      const post = step.post;
      const applied = await deps.alerts.step(sub.ref, sub.id, {
        period,
        read,
        state: post ? "" : alertField(step.state),
        pending: post ? pendingField(period, post) : "",
        snooze: snoozeRead(sub),
      });
      if (applied === "gone") return done({ status: "skipped", why: "gone", period });
      if (applied === "applied") {
        if (post) return announce(deps, run, sub, post, checked, explained);
        const reason = step.snoozed
          ? `${step.snoozed}: ${checked.verdict.reason}`
          : `${step.state === "firing" ? "still firing: " : ""}${checked.verdict.reason}`;
        await record("skipped", { reason });
        return done({ status: "skipped", why: "condition_not_met", period });
      }
    }
    const fresh = await deps.store.get(sub.ref, sub.id);
    if (!fresh) return done({ status: "skipped", why: "gone", period });
    sub = fresh;
  }
  await deps.claims.release(sub.ref, sub.id, period, run.claim.token, { posted: false });
  return later(run.job, run.jobToken, 1_000);
}
