/**
 * The layering, stated once and checked on every `npm run lint`: each layer may import its own
 * layer and the ones below it, never one above. Top to bottom:
 */
const LAYERS = [
  { name: "sandbox", paths: ["^sandbox/"] },
  { name: "cli", paths: ["^src/cli/"] },
  { name: "composition root", paths: ["^src/app/"] },
  { name: "handlers", paths: ["^commands/", "^src/slack/listeners/"] },
  {
    name: "slack and delivery",
    paths: ["^src/slack/", "^src/install/", "^src/jobs/", "^src/interactive/", "^src/ops/"],
  },
  { name: "use cases", paths: ["^src/digests/", "^src/ask/"] },
  {
    name: "domain",
    paths: ["^src/subscriptions/", "^templates/", "^src/insights/", "^src/chart/", "^src/blockkit/"],
  },
  { name: "adapters", paths: ["^src/analytics/", "^src/store/"] },
  { name: "base", paths: ["^src/[^/]+[.]ts$"] },
];

const upward = LAYERS.flatMap((layer, i) =>
  LAYERS.slice(0, i).map((above) => ({
    name: `no-upward-${layer.name.replace(/\s+/g, "-")}-to-${above.name.replace(/\s+/g, "-")}`,
    comment: `${layer.name} sits below ${above.name}: it may not import it.`,
    severity: "error",
    from: { path: layer.paths, pathNot: LAYERS.slice(0, i + 1).flatMap((l) => (l === layer ? [] : l.paths)) },
    to: { path: above.paths },
  })),
);

module.exports = {
  forbidden: [
    ...upward,
    {
      name: "no-circular",
      comment: "A cycle makes two modules one; split the shared part out instead.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "product-not-on-sandbox-or-tests",
      comment: "The product never depends on the stand-ins or the tests (they stay out of dist/).",
      severity: "error",
      from: { path: ["^src/", "^commands/", "^templates/"] },
      to: { path: ["^sandbox/", "^test/"] },
    },
    {
      name: "pure-core-no-io",
      comment: "Templates and the digest math are pure: no Slack, Redis, queue or HTTP client.",
      severity: "error",
      from: { path: ["^templates/", "^src/insights/", "^src/blockkit/", "^src/chart/", "^src/ask/"] },
      to: {
        path: ["node_modules/(@slack|ioredis|bullmq|graphql-request)", "^(node:)?(http|https|net)$"],
      },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
    },
  },
};
