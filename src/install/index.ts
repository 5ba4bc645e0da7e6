/** Public API of the multi-workspace layer: OAuth installs, token rotation, and the purge on leaving. */
export {
  authorizationUrlFor,
  BOT_SCOPES,
  INSTALL_PATH,
  type OAuthAppOptions,
  type OAuthAppOptionsInput,
  oauthAppOptions,
  REDIRECT_PATH,
} from "./bolt-options.ts";
export { withoutRefreshTokens, withTokenRotation } from "./bolt-store.ts";
export { createInstallLayer, type InstallLayer, type InstallLayerOptions } from "./compose.ts";
export { type HeldLock, tryLock } from "./lock.ts";
export {
  type LifecycleDeps,
  type PurgeOptions,
  type PurgeResult,
  purgeWorkspace,
  type RemoveSchedulers,
} from "./purge.ts";
export { fromSealedRecord, SECRET, type StoredInstallation, toSealedRecord } from "./records.ts";
export {
  createTokenRefresher,
  type RefreshBotToken,
  type RefreshedToken,
  type TokenRefresherOptions,
} from "./refresh.ts";
export { refLabel, refOfInstallation, refOfQuery } from "./refs.ts";
export { createTokenRotation, type TokenRotation, type TokenRotationOptions } from "./rotation.ts";
export {
  createInstallationStore,
  type InstallationRecords,
  type InstallationStoreOptions,
  type RotatedBotToken,
} from "./store.ts";
