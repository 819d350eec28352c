/** `npm start`: the playground served from this checkout (server/cli/serve.ts). */
import { ConfigError } from "./config";
import { serve } from "./cli/serve";

serve().catch((err: Error) => {
  console.error(err instanceof ConfigError ? `Configuration error: ${err.message}` : err);
  process.exit(1);
});
