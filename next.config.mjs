/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The custom server (server/) is not part of the Next build.
  typescript: { tsconfigPath: "tsconfig.json" },
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
