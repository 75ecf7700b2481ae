import { createRequire } from "node:module";

// One list of response headers for Next.js's answers (here) and for the custom server's /api/v2 fast
// path (server/serve-api-route.ts): a header added to one is added to both.
const responseHeaders = createRequire(import.meta.url)("./server/response-headers.json");

/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships a WASM build and must be loaded from node_modules, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2"],
  poweredByHeader: false,
  reactStrictMode: true,
  // `npm test` type-checks the same tsconfig with `tsc --noEmit` before it builds, and sets
  // KASSA_BUILD_TYPECHECKED so the build does not check it a second time (13 s on two cores). Any
  // other build, `npm start`'s included, type-checks.
  typescript: { ignoreBuildErrors: process.env.KASSA_BUILD_TYPECHECKED === "1" },
  experimental: {
    // Turbopack's build cache speeds up a rebuild but costs about 20 s to write; scripts/ensure-build.mjs
    // turns it off for the first build of a checkout (a fresh clone, CI, a first `npm start`), which
    // nothing would read.
    turbopackFileSystemCacheForBuild: process.env.KASSA_BUILD_CACHE !== "off",
  },
  async headers() {
    // Where two entries set one header the later wins: the checkout's Referrer-Policy comes last.
    // Pages get their Content-Security-Policy, with a nonce per request, from proxy.ts.
    return [
      { source: "/:path*", headers: responseHeaders.everyResponse },
      // Route handlers answer JSON, SVG or text: nothing in them may run, load or be framed.
      { source: "/api/:path*", headers: responseHeaders.routeHandlers },
      { source: "/metrics", headers: responseHeaders.routeHandlers },
      // The token in a checkout URL is the key to the invoice: never leak it in a Referer, never index it.
      // (Not no-referrer everywhere: with it, browsers send `Origin: null` on the dashboard's own
      // mutations, which lib/api/with-session.ts rightly refuses.)
      { source: "/pay/:token*", headers: responseHeaders.checkout },
      { source: "/link/:token*", headers: responseHeaders.checkout },
    ];
  },
};

export default nextConfig;
