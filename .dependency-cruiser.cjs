// The import rules, checked by `npm run lint:deps` (part of `npm run lint` and of `npm test`).
// TypeScript 7 has no JavaScript API, so dependency-cruiser reads TypeScript through Babel
// (.dependency-cruiser.babel.json), which drops `import type`: the rules see the imports that run.
/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Modules that load each other are one module in two files: move the shared part down.",
      from: {},
      to: { circular: true },
    },
    {
      name: "engine-not-next",
      severity: "error",
      comment:
        "The engine (lib/) knows nothing of Next.js: keep next/* imports in app/, components/ or server/.",
      // The one exception: the dashboard's session helper reads the request's headers and redirects to
      // the sign-in page, which only Next.js can do from a server component or a route.
      from: { path: "^lib/", pathNot: "^lib/auth/session\\.ts$" },
      to: { path: "(^|/)node_modules/next/" },
    },
    {
      name: "engine-not-app",
      severity: "error",
      comment: "lib/ must not import app/: the routes call the engine, never the other way round.",
      from: { path: "^lib/" },
      to: { path: "^app/" },
    },
    {
      name: "engine-not-components",
      severity: "error",
      comment:
        "lib/ must not import components/: the pages draw what the engine returns, never the other way round.",
      from: { path: "^lib/" },
      to: { path: "^components/" },
    },
    {
      name: "components-not-engine",
      severity: "error",
      comment:
        "components/ takes only types from the engine (lib/): values come as props or through the dashboard " +
        "API. The shared pure modules (schemas, money, digits, formatting, checkout presentation, " +
        "permissions, key ranges) are allowed.",
      from: { path: "^components/" },
      to: {
        path: "^lib/",
        pathNot: [
          "^lib/schemas/",
          "^lib/money\\.ts$",
          "^lib/digits\\.ts$",
          "^lib/format-date-time\\.ts$",
          "^lib/format-money\\.ts$",
          "^lib/checkout/present\\.ts$",
          "^lib/api-keys/split-ranges\\.ts$",
          "^lib/team/permissions\\.ts$",
        ],
      },
    },
  ],
  options: {
    doNotFollow: { path: "(^|/)node_modules/" },
    tsConfig: { fileName: "tsconfig.json" },
    babelConfig: { fileName: ".dependency-cruiser.babel.json" },
    enhancedResolveOptions: {
      extensions: [".ts", ".tsx", ".mts", ".js", ".mjs", ".cjs", ".json"],
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
    },
  },
};
