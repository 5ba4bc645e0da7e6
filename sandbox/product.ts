import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type * as Redis from "../src/app/redis.ts";
import type * as Web from "../src/app/web.ts";
import type * as Worker from "../src/app/worker.ts";
import type * as ToText from "../src/blockkit/to-text.ts";
import type * as Render from "../src/chart/render.ts";
import type * as ClockModule from "../src/clock.ts";
import type * as Config from "../src/config.ts";
import type * as ChartInput from "../src/digests/chart-input.ts";
import type * as Ids from "../src/ids.ts";
import type * as Log from "../src/log.ts";
import type * as Crypto from "../src/store/crypto.ts";

/**
 * The product the sandbox (demo, e2e stack) drives. By default the TypeScript sources; with
 * `INSIGHTS_SANDBOX_PRODUCT=dist`, the compiled build in dist/, so `node dist/src/cli/main.js demo`
 * (and CI's smoke run) exercises the JavaScript that ships, not the sources beside it. The stand-ins
 * themselves always run from source: they are not the product.
 */

export type ProductBuild = "source" | "dist";

const wanted = process.env.INSIGHTS_SANDBOX_PRODUCT;
if (wanted !== undefined && wanted !== "" && wanted !== "source" && wanted !== "dist")
  throw new Error(`INSIGHTS_SANDBOX_PRODUCT must be "source" or "dist", not "${wanted}"`);

/** Which build this process drives. */
export const PRODUCT_BUILD: ProductBuild = wanted === "dist" ? "dist" : "source";

const root = new URL(PRODUCT_BUILD === "dist" ? "../dist/src/" : "../src/", import.meta.url);
if (PRODUCT_BUILD === "dist" && !existsSync(fileURLToPath(new URL("app/web.js", root))))
  throw new Error("INSIGHTS_SANDBOX_PRODUCT=dist, but dist/ holds no build: run `npm run build` first.");

const load = <T>(module: string): Promise<T> =>
  import(new URL(`${module}.${PRODUCT_BUILD === "dist" ? "js" : "ts"}`, root).href) as Promise<T>;

const [web, worker, redis, config, log, crypto, render, chartInput, ids, toText, clock] = await Promise.all([
  load<typeof Web>("app/web"),
  load<typeof Worker>("app/worker"),
  load<typeof Redis>("app/redis"),
  load<typeof Config>("config"),
  load<typeof Log>("log"),
  load<typeof Crypto>("store/crypto"),
  load<typeof Render>("chart/render"),
  load<typeof ChartInput>("digests/chart-input"),
  load<typeof Ids>("ids"),
  load<typeof ToText>("blockkit/to-text"),
  load<typeof ClockModule>("clock"),
]);

export const { startWeb } = web;
export const { startWorker } = worker;
export const { connectRedis } = redis;
export const { loadConfig } = config;
export const { createLogger } = log;
export const { formatKeyring, generateKeyring } = crypto;
export const { renderChartPng } = render;
export const { chartInputFor } = chartInput;
export const { ACTION, BLOCK } = ids;
export const { renderText } = toText;
export const { clockOf, systemClock, utcDayOf } = clock;
export type Clock = ClockModule.Clock;
