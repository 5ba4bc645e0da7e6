import { alertMessage } from "../../templates/alert-message.ts";
import type { DigestView } from "../insights/types.ts";
import { sendWithFallback } from "../slack/refusal.ts";
import { alertStep } from "../subscriptions/alerts.ts";
import { incomplete, judge, type Verdict } from "../subscriptions/conditions.ts";
import { periodTime } from "../subscriptions/period.ts";
import { alertField, pendingField } from "../subscriptions/run-state.ts";
import { conditionOf } from "../subscriptions/run-verdict.ts";
import { scheduleText } from "../subscriptions/schedule.ts";
import type { SubscriptionStore } from "../subscriptions/store.ts";
import type { Subscription } from "../subscriptions/types.ts";
import type { AlertStateStore } from "./alert-state.ts";
import { later } from "./delivery-job.ts";
import { buildView, deliveryMetadata } from "./digest-post.ts";
import { done, type Run, type RunDeps, type RunOutcome, recorder, takeover } from "./digest-run.ts";

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
}

async function check(deps: AlertDeps, run: Run, sub: Subscription): Promise<Checked> {
  const condition = conditionOf(sub);
  const view = await buildView(
    { ...deps, digests: run.digests },
    sub,
    periodTime(run.period) ?? deps.clock(),
  );
  // An alert always has a condition (validation refuses one without); a record that lost it checks nothing.
  const verdict = condition ? judge(condition, view.digest) : { met: false, reason: "no condition" };
  return { view, verdict };
}

/** Posts the alert's message for `kind` (the run's claim confirmed first) and records the state it tells. */
async function announce(
  deps: AlertDeps,
  run: Run,
  sub: Subscription,
  kind: "fire" | "clear" | "check",
  checked: Checked,
): Promise<RunOutcome> {
  const { period } = run;
  const record = recorder(deps, run);
  const told =
    kind === "check" ? {} : { set: { as: alertField(kind === "fire" ? "firing" : "clear") }, clear: ["aq"] };
  const seen = await takeover(deps, run, undefined, async (ts) => {
    await record("delivered", { messageTs: ts }, told);
    return { status: "delivered", period, ts };
  });
  if (seen) return seen;
  if (!(await deps.claims.confirm(sub.ref, sub.id, period, run.claim.token)))
    return done({ status: "skipped", why: "lease_lost", period });
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
  // A refused chart block costs the alert its chart, never the alert.
  const reply = await sendWithFallback(
    messageOf(checked.view),
    () => messageOf({ ...checked.view, chartStyle: "off" }),
    (message) =>
      deps.slack.call(run.botToken, "chat.postMessage", {
        channel: sub.channelId,
        ...message,
        unfurl_links: false,
        metadata: deliveryMetadata(run.deliveryId),
      }),
  );
  const ts = String(reply.ts ?? "");
  return {
    kind: "posted",
    async record() {
      await record("delivered", { messageTs: ts }, told);
      deps.logger.info({ subId: sub.id, period, ts, kind }, "alert posted");
      return { status: "delivered", period, ts };
    },
  };
}

/**
 * One check of an alert subscription. The condition is read against the state last told in the
 * conversation (alerts.ts): it posts once when the condition starts to hold and once when it clears.
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
        told ? alertField(pending.post === "fire" ? "firing" : "clear") : "",
      );
    } else if (alert?.applied && alert.applied >= period) {
      await deps.claims.finish(sub.ref, sub.id, period, "skipped", "superseded");
      return done({ status: "skipped", why: "superseded", period });
    } else {
      const checked = await check(deps, run, sub);
      if (incomplete(checked.view.digest)) {
        // A gap could make a number cross the line either way: the alert says nothing until it is filled.
        const state = alert?.state === "firing" ? "firing" : "clear";
        await record("skipped", {
          reason: `data incomplete (${checked.verdict.reason}); the alert stays ${state}`,
        });
        return done({ status: "skipped", why: "condition_not_met", period });
      }
      const step = alertStep(alert?.state, checked.verdict.met);
      const read = alert ? alertField(alert.state) : "";
      const post = step.post;
      const applied = await deps.alerts.step(sub.ref, sub.id, {
        period,
        read,
        state: post ? "" : alertField(step.state),
        pending: post ? pendingField(period, post) : "",
      });
      if (applied === "gone") return done({ status: "skipped", why: "gone", period });
      if (applied === "applied") {
        if (post) return announce(deps, run, sub, post, checked);
        const reason = `${step.state === "firing" ? "still firing: " : ""}${checked.verdict.reason}`;
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
