// Builds the one-file export's viewer (server/transcripts/export.ts) into export-viewer/, after `next build`.
import { buildViewer } from "../server/transcripts/export";

const { script, css } = await buildViewer();
console.log(`export viewer: ${(script.length / 1024).toFixed(0)} KiB JS, ${(css.length / 1024).toFixed(0)} KiB CSS`);
