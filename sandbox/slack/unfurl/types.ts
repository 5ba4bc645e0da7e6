/** A message a person posted with links to the app's unfurl domains, and what the app did with them. */
export interface LinkShare {
  /** `unfurl_id` as in the link_shared event. */
  unfurlId: string;
  teamId: string;
  channelId: string;
  /** The message's ts (`message_ts` in the event). */
  ts: string;
  userId: string;
  source: "conversations_history" | "composer";
  /** The links Slack sent in link_shared: only those on the app's unfurl domains. */
  links: { domain: string; url: string }[];
  /** What chat.unfurl attached, by URL (Slack shows it under the message). */
  unfurls: Record<string, Record<string, unknown>>;
}
