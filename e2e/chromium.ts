/**
 * How the tests and benchmarks launch Debian's Chromium: never a downloaded
 * browser, and no background networking (the machines are offline).
 */
export const CHROMIUM_LAUNCH = {
  executablePath: "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};
