import type {} from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    redisUrl: string;
    /** `redis-cluster://…` of a private 3-master Redis Cluster. */
    redisClusterUrl: string;
  }
}
