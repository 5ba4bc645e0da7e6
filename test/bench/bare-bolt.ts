import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { App, LogLevel } from "@slack/bolt";
import { DEMO } from "../../sandbox/slack/index.ts";

/**
 * The yardstick for ack latency: a Bolt app with the product's receiver settings (HTTPReceiver,
 * signature check, ack before processing) that only acks — the slash command, every block action,
 * every modal submission and every menu search (with no options). Whatever the product adds on top
 * of Bolt shows as the ratio between the two. Run as a process of its own (`BARE_PORT`, `BARE_SECRET`) it serves `/healthz` too.
 */
export async function startBareBolt(
  signingSecret: string,
  port = 0,
): Promise<{ url: string; close(): Promise<void> }> {
  const app = new App({
    signingSecret,
    authorize: async () => ({ botToken: DEMO.botToken, botUserId: DEMO.botUserId, teamId: DEMO.teamId }),
    processBeforeResponse: false,
    logLevel: LogLevel.ERROR,
    customRoutes: [
      {
        path: "/healthz",
        method: ["GET"],
        handler: (_req, res) => {
          res.writeHead(200);
          res.end("ok");
        },
      },
    ],
  });
  app.command("/insights", async ({ ack }) => {
    await ack();
  });
  app.action(/.*/, async ({ ack }) => {
    await ack();
  });
  app.view(/.*/, async ({ ack }) => {
    await ack();
  });
  app.options(/.*/, async ({ ack }) => {
    await ack({ options: [] });
  });
  const server = (await app.start({ port, host: "127.0.0.1" })) as unknown as Server;
  const bound = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${bound}/slack/events`, close: () => app.stop().then(() => undefined) };
}

if (process.env.BARE_PORT && process.env.BARE_SECRET) {
  const bare = await startBareBolt(process.env.BARE_SECRET, Number(process.env.BARE_PORT));
  process.on("SIGTERM", () => {
    bare.close().finally(() => process.exit(0));
  });
}
