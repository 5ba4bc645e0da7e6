import type { AppOptions, InstallationStore } from "@slack/bolt";
import type { SlackConfig } from "../config.ts";
import { ConfigError } from "../errors.ts";

/**
 * The App options that switch Bolt into OAuth mode (many workspaces): install and redirect
 * routes, the installation store, and the authorize URL beside the configured Web API URL, so the
 * Slack stand-in serves the whole install flow in tests.
 */

/** Bot scopes requested at install; the same list as `oauth_config.scopes.bot` in manifest.yaml. */
export const BOT_SCOPES = [
  "commands",
  "chat:write",
  "im:write",
  "users:read",
  "channels:read",
  "groups:read",
  "files:write",
  "files:read",
  "channels:history",
  "groups:history",
  // Link unfurls: see links to the platform (link_shared) and answer them (chat.unfurl).
  "links:read",
  "links:write",
  // Questions in plain words: DMs to the app (message.im), mentions in channels (app_mention), and
  // the suggested prompts of its Messages tab.
  "im:history",
  "app_mentions:read",
  "assistant:write",
] as const;

export const INSTALL_PATH = "/slack/install";
export const REDIRECT_PATH = "/slack/oauth_redirect";

export interface OAuthAppOptionsInput {
  slack: SlackConfig;
  installationStore: InstallationStore;
  scopes?: readonly string[];
  /**
   * Full redirect URL (`https://host/slack/oauth_redirect`). Optional with real Slack, which falls
   * back to the app's configured redirect URL; the stand-in needs it.
   */
  redirectUri?: string;
  /**
   * Default true (state cookie checked on the redirect). Set false only to accept org-wide installs
   * started from Slack's admin pages, which arrive without our state.
   */
  stateVerification?: boolean;
}

export type OAuthAppOptions = Pick<
  AppOptions,
  | "clientId"
  | "clientSecret"
  | "stateSecret"
  | "scopes"
  | "installationStore"
  | "installerOptions"
  | "redirectUri"
>;

/** `https://slack.com/api/` → `https://slack.com/oauth/v2/authorize`; the stand-in answers the same path. */
export function authorizationUrlFor(apiUrl: string): string {
  return new URL("/oauth/v2/authorize", apiUrl).toString();
}

/**
 * @example
 * new App({ signingSecret, ...oauthAppOptions({ slack: config.slack, installationStore }), clientOptions });
 */
export function oauthAppOptions(input: OAuthAppOptionsInput): OAuthAppOptions {
  const { clientId, clientSecret, stateSecret, apiUrl } = input.slack;
  if (!clientId || !clientSecret || !stateSecret) {
    throw new ConfigError("OAuth needs SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET", [
      "SLACK_CLIENT_ID",
      "SLACK_CLIENT_SECRET",
      "SLACK_STATE_SECRET",
    ]);
  }
  return {
    clientId,
    clientSecret,
    stateSecret,
    scopes: [...(input.scopes ?? BOT_SCOPES)],
    installationStore: input.installationStore,
    ...(input.redirectUri ? { redirectUri: input.redirectUri } : {}),
    installerOptions: {
      installPath: INSTALL_PATH,
      redirectUriPath: REDIRECT_PATH,
      // /slack/install redirects straight to Slack's consent page (no "Add to Slack" landing page).
      directInstall: true,
      stateVerification: input.stateVerification ?? true,
      authorizationUrl: authorizationUrlFor(apiUrl),
    },
  };
}
