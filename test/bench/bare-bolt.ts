import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { App, LogLevel } from "@slack/bolt";
import { DEMO } from "../../sandbox/slack/index.ts";

/**
 * The yardstick for ack latency: a Bolt app with the product's receiver settings (HTTPReceiver,
 * signature check, ack before processing) that only acks `/insights`. Whatever the product adds on
 * top of Bolt shows as the ratio between the two.
 */
export async function startBareBolt(signingSecret: string): Promise<{ url: string; close(): Promise<void> }> {
  const app = new App({
    signingSecret,
    authorize: async () => ({ botToken: DEMO.botToken, botUserId: DEMO.botUserId, teamId: DEMO.teamId }),
    processBeforeResponse: false,
    logLevel: LogLevel.ERROR,
  });
  app.command("/insights", async ({ ack }) => {
    await ack();
  });
  const server = (await app.start({ port: 0, host: "127.0.0.1" })) as unknown as Server;
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/slack/events`, close: () => app.stop().then(() => undefined) };
}
