#!/usr/bin/env node
// The headless CLI: same lib/ and server/ code as the playground (TypeScript, loaded through tsx).
import { register } from "tsx/esm/api";

register();
await import("../server/cli.ts");
