/** `npm start`: the playground served from this checkout (server/cli/serve.ts). */
import { ConfigError } from "./config";
import { serve } from "./cli/serve";

// `npm start -- ...` reads only --no-open (server/cli/open-browser.ts): anything else would be ignored without a word.
const unread = process.argv.slice(2).find((a) => a !== "--no-open");
if (unread !== undefined) {
  // `npm start` or `npm run dev`, as the user typed it.
  const script = process.env.npm_lifecycle_event === "dev" ? "run dev" : "start";
  console.error(
    `npm ${script} takes only --no-open, not ${unread}: set the variables instead (PORT, ACP_PLAYGROUND_CONFIG, ` +
      "ACP_PLAYGROUND_DATA...: README, Configuration), or run `npx acp-playground serve` with serve's options " +
      "(`npx acp-playground serve --help`).",
  );
  process.exitCode = 2;
} else {
  serve().catch((err: Error) => {
    console.error(err instanceof ConfigError ? `Configuration error: ${err.message}` : err);
    process.exit(1);
  });
}
