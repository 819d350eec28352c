/**
 * Before Connect: a profile that cannot start now (a replay still recording), one
 * whose agent has no credentials (the relay says so), or the shipped demo, which
 * is a recording and not a live agent.
 */
import type { ProfileSummary } from "@/lib/contracts/wire";

export function CredentialsNote({ profile }: { profile: ProfileSummary | undefined }) {
  if (profile?.unavailable)
    return (
      <p data-testid="unavailable-note" role="status" className="text-[11px] text-amber-200">
        Cannot start “{profile.replayOf?.title ?? profile.name}”: {profile.unavailable}.
      </p>
    );
  if (profile?.demo)
    return (
      <p data-testid="demo-note" className="text-[11px] text-amber-200">
        A recording, not a live agent: the shipped demo replays a real Gemini CLI session and answers its own recorded
        prompts, whatever you type. For a live agent without an account, pick <code>gemini-offline</code>; to use a real
        account, start the server with GEMINI_API_KEY set (or log in once with <code>npx gemini</code>), as the
        README&apos;s &quot;Using a real Gemini account&quot; says.
      </p>
    );
  if (profile?.credentialsMissing)
    return (
      <p data-testid="credentials-note" className="text-[11px] text-amber-200">
        {profile.credentialsMissing} (README: &quot;Using a real Gemini account&quot;).
      </p>
    );
  return null;
}
