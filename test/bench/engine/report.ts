import type { BenchResults } from "../main.ts";
import { faultCells, faultMeasured, seconds, tableUnder } from "../markdown.ts";
import { int, round } from "../stats.ts";
import type { TargetCheck } from "../targets.ts";
import type { CostResult } from "./cost.ts";

const s = seconds;

/** Who sent a delivery's client commands, largest first: "BullMQ 6.1 (scripts 3), src/… 1.5 (scripts 1)". */
function owners(c: CostResult): string {
  const list = Object.entries(c.byOwner ?? {});
  if (list.length === 0) return "not recorded in this run";
  return list.map(([who, v]) => `${who} ${v.commands} (scripts ${v.scripts})`).join(", ");
}

/** Issue 15's targets from one run. */
export function engineTargets(r: BenchResults): TargetCheck[] {
  const out: TargetCheck[] = [];
  for (const c of r.engine.cost ?? [])
    out.push(
      {
        target: `≤ 25 Redis commands per delivery (${c.backend})`,
        figure: `${c.commandsPerDelivery} sent by the client (${c.serverCommandsPerDelivery} run by Redis, scripts' inner calls included)`,
        met: c.commandsPerDelivery <= 25,
        why: `client commands per delivery by sender: ${owners(c)}`,
      },
      {
        target: `≤ 6 Redis round trips per delivery (${c.backend})`,
        figure: `${c.roundTripsPerDelivery}`,
        met: c.roundTripsPerDelivery <= 6,
        why: `${c.commandsPerDelivery} client commands per delivery in ${c.roundTripsPerDelivery} round trips; by sender: ${owners(c)}`,
      },
    );
  const t = r.engine.throttle;
  if (t)
    out.push({
      target: "a throttled workspace costs the others < 10 % of their throughput",
      figure: `${round(t.cost * 100, 1)} % (${t.othersPerSecThrottled} vs ${t.othersPerSecFree} digests/s)`,
      met: t.cost < 0.1,
      why: `measured alongside: the throttled workspace drew ${int(t.throttled429)} 429s and got ${int(t.throttledWorkspaceDelivered)} digests out in its runs; the others per run: ${(t.runs ?? []).map((x) => `${x.throttled ? "throttled" : "free"} ${x.othersPerSec}/s`).join(", ")}`,
    });
  for (const f of r.faultsCluster)
    out.push({
      target: `0 lost, 0 duplicated (Redis Cluster): ${f.name}`,
      figure: `${int(f.result.delivered)} delivered, ${int(f.result.lost)} lost, ${int(f.result.duplicates)} duplicated`,
      met: f.result.lost === 0 && f.result.duplicates === 0,
      why: faultMeasured(f.result),
    });
  return out;
}

/** The engine section of the report. */
export function engineSection(r: BenchResults): string {
  const out = ["## Engine: Redis cost, processes, throttling, scale", ""];
  out.push(
    ...tableUnder(
      "Redis cost of a delivery: one slot firing for the subscriptions below, one worker with concurrency 1 (so deliveries never share a batch), fan-out included and divided by the count. Client side: every command any connection of the worker process sends (BullMQ's included), and round trips as the batches a connection writes before it waits. Server side: INFO commandstats, which also counts the commands scripts run inside Redis (not attributed to a sender: Redis does not say which script ran them). Senders are read off each command's call stack: BullMQ, or the project module that made the call.",
      [
        "Redis",
        "Deliveries",
        "Commands / delivery (client)",
        "Round trips / delivery",
        "Commands run by Redis / delivery",
        "Client commands by sender (of them scripts)",
        "Client commands by name",
      ],
      (r.engine.cost ?? []).map((c) => [
        c.backend,
        int(c.deliveries),
        c.commandsPerDelivery,
        c.roundTripsPerDelivery,
        c.serverCommandsPerDelivery,
        owners(c),
        Object.entries(c.byCommand)
          .map(([k, v]) => `${k} ${v}`)
          .join(", "),
      ]),
    ),
  );
  out.push(
    ...tableUnder(
      "One worker process against two (each WORKER_CONCURRENCY 50), the same storm (one subscription per channel):",
      [
        "Worker processes",
        "Subscriptions",
        "Time to all",
        "Digests/s",
        "Delivered / dup / lost",
        "Machine CPU",
      ],
      (r.engine.workers ?? []).map((x) => [
        x.workers,
        int(x.storm.subscriptions),
        s(x.storm.timeToAllMs),
        x.storm.digestsPerSec,
        `${int(x.storm.delivered)} / ${int(x.storm.duplicates)} / ${int(x.storm.lost)}`,
        `${x.storm.cpu.machinePct} %`,
      ]),
    ),
  );
  const t = r.engine.throttle;
  if (t)
    out.push(
      `A throttled workspace: ${int(t.subscriptions)} subscriptions over ${int(t.workspaces)} workspaces, ${(t.runs ?? []).length} runs (${(t.runs ?? []).map((x) => (x.throttled ? "throttled" : "free")).join(", ")}; the machine's load drifts); in a throttled run Slack answers 429 (Retry-After 1 s) to every post of the first workspace for the whole run. The others' throughput: ${t.othersPerSecFree} digests/s without, ${t.othersPerSecThrottled} with (${round(t.cost * 100, 1)} % less; runs: ${(t.runs ?? []).map((x) => `${x.throttled ? "throttled" : "free"} ${x.othersPerSec}`).join(", ")}); the throttled workspace got ${int(t.throttledWorkspaceDelivered)} digests out and ${int(t.throttled429)} 429s in its runs.`,
      "",
    );
  out.push(
    ...tableUnder(
      "Fault runs on a 3-master Redis Cluster (the Redis fault kills and restarts one master):",
      ["Fault", "Delivered", "Lost", "Duplicated", "Failure notices", "Time to all"],
      r.faultsCluster.map((f) => [f.name, ...faultCells(f.result)]),
    ),
  );
  return out.join("\n");
}
