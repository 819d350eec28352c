/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The custom server (server/) is not part of the Next build. `npm run check` type-checks this
  // tsconfig (and lib's and server's) before any build in CI: the build does not do it a second time.
  typescript: { tsconfigPath: "tsconfig.json", ignoreBuildErrors: true },
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          // The page URL carries the access token: never leak it in a Referer.
          { key: "Referrer-Policy", value: "no-referrer" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "X-Content-Type-Options", value: "nosniff" },
        ],
      },
    ];
  },
};

export default nextConfig;
