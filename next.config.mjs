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
  typescript: { ignoreBuildErrors: false },
  async headers() {
    return [
      // The token in a checkout URL is the key to the invoice: never leak it in a Referer, never index it.
      { source: "/pay/:token*", headers: responseHeaders.checkout },
      { source: "/:path*", headers: responseHeaders.everyResponse },
    ];
  },
};

export default nextConfig;
