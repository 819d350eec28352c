/**
 * The client side for one agent, in the agent's protocol (its spec, lib/features/protocols/:
 * ACP's permissions, fs/ and terminal/ requests; Codex's app-server approvals and questions):
 * tracks the requests its protocol's client answers until they are answered and answers them by
 * policy (ask / auto / deny), carrying out fs/ and terminal/ requests through ClientServices;
 * any other request is a stranger, answered by the unknown-methods policy. Every carried-out request
 * passes here, so here a request for a capability the client's `initialize`
 * did not advertise is refused, whatever the policy.
 */
import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { classifyLine, idKey, type Frame } from "../../lib/protocol/frame";
import { PendingRequests } from "../../lib/protocol/pending-requests";
import {
  autoPermission,
  defaultPolicies,
  denied,
  isUnknownMethodIn,
  methodNotFound,
  type Policies,
} from "../../lib/features/answers/policy";
import { specOf, type ProtocolSpec } from "../../lib/features/protocols/registry";
import { SERVED_METHODS, UNKNOWN_METHODS } from "../../lib/contracts/policies";
import type { ProtocolName } from "../../lib/protocol/protocols";
import type { Ack, RelayError } from "../../lib/contracts/wire";
import type { RpcError } from "../../lib/protocol/jsonrpc";
import { notAdvertised } from "../../lib/protocol/client-capabilities";
import { cancelledIdOf } from "../../lib/folds/frame-index";
import { agentRequestError, ServiceError, type ClientServices } from "./client-services";
import { AGENT_METHODS, CLIENT_METHODS } from "../../lib/protocol/methods";

/** Ids of withdrawn requests remembered (an agent's flood of cancels holds no more). */
const WITHDRAWN_KEPT = 1_024;

/** JSON-RPC's answer to a cancelled request (ACP's ErrorCode "Request cancelled"). */
export const requestCancelled = (requestId: string | number): RpcError => ({
  code: -32800,
  message: "Request cancelled",
  data: { requestId, reason: "the agent sent $/cancel_request" },
});

export class AgentAnswerer {
  private policies: Policies = defaultPolicies();
  private services?: ClientServices;
  /** Agent->client requests not answered yet, by seq (a response's `requestSeq` closes one). */
  private readonly pending = new PendingRequests<Frame>();
  /** Ids (`idKey`, lib/protocol/frame.ts) of requests the agent withdrew and the relay answered: no later answer may reach the agent. */
  private readonly withdrawn = new Set<string>();
  /** While set (a re-run answers as recorded), policies stand aside. */
  suspended = false;
  /** The `clientCapabilities` of the client's last `initialize` to this agent; undefined: none seen, nothing advertised. */
  private advertised: unknown;
  /** The running agent's protocol: which requests its client answers, and how. */
  private spec: ProtocolSpec = specOf(undefined);

  /** `send` writes a response line to the agent (recorded like any frame). */
  constructor(private readonly send: (frame: string | object) => Ack<{ seq: number }>) {}

  get current(): Policies {
    return this.policies;
  }

  /** A new agent (speaking `protocol`; ACP when absent): forget the old one's requests. */
  reset(services: ClientServices, protocol?: ProtocolName): void {
    this.services = services;
    this.spec = specOf(protocol);
    this.pending.clear();
    this.withdrawn.clear();
    this.advertised = undefined;
  }

  setPolicies(policies: Policies): Policies {
    this.policies = { ...this.policies, ...policies };
    // Requests already waiting follow the new policy too.
    for (const frame of this.pending.list()) this.apply(frame);
    return this.policies;
  }

  /** Sees every frame: agent requests are tracked (and answered by policy), answers close them. */
  track(frame: Frame): void {
    if (frame.kind === "request" && frame.dir === "to-agent" && frame.method === AGENT_METHODS.initialize) {
      // The last initialize is what the agent was told (an initialize without capabilities advertises none).
      const params = (frame.message as { params?: { clientCapabilities?: unknown } } | undefined)?.params;
      this.advertised = params?.clientCapabilities ?? {};
    } else if (
      frame.kind === "request" &&
      frame.dir === "from-agent" &&
      frame.method &&
      (this.spec.answerable.includes(frame.method) || this.unknown(frame.method))
    ) {
      this.pending.open(frame);
      // The id is in use again: answers to it are this request's.
      this.withdrawn.delete(idKey(frame.id));
      this.apply(frame);
    } else if (frame.kind === "response" && frame.dir === "to-agent" && frame.requestSeq !== undefined) {
      this.forget(frame.requestSeq);
    } else if (frame.dir === "from-agent") {
      const id = cancelledIdOf(frame);
      if (id !== undefined) this.cancel(id);
    }
  }

  /**
   * The agent withdrew one of its requests (`$/cancel_request`): it is no longer
   * tracked, never carried out if it still waits (ask mode, or a policy change),
   * and answered `-32800` as the spec asks of the side that received the cancel;
   * a request being carried out (a terminal wait, a read) gets the same answer now
   * and its own result is dropped when it comes. A cancel naming no pending request
   * is ignored (it may have been answered already).
   */
  private cancel(id: string | number): void {
    if (this.suspended) return;
    const frame = this.newestPending(id);
    if (!frame) return;
    this.respond(frame, { error: requestCancelled(id) });
    // Forget it now, not when the echo of the answer comes back: an answer in progress must find it gone.
    this.forget(frame.seq);
    this.withdrawn.add(idKey(id));
    if (this.withdrawn.size > WITHDRAWN_KEPT) this.withdrawn.delete(this.withdrawn.values().next().value!);
  }

  /**
   * Why a line the client (the page, a re-run) sends must not reach the agent: it
   * answers a request the agent withdrew, already answered -32800 here, so the
   * agent would get a second answer to a request it no longer has. Undefined: send it.
   */
  refusal(line: string): RelayError | undefined {
    if (this.withdrawn.size === 0) return undefined;
    const { kind, id } = classifyLine(line);
    if (kind !== "response" || id === undefined || !this.withdrawn.has(idKey(id))) return undefined;
    return {
      code: "invalid_payload",
      message: `the agent cancelled its request ${JSON.stringify(id)} ($/cancel_request) and was answered -32800: this answer was not sent`,
    };
  }

  /** The newest pending request with this JSON-RPC id, found in O(1): an agent's cancels never scan the map. */
  private newestPending(id: string | number): Frame | undefined {
    return this.pending.newestById("from-agent", id);
  }

  private forget(seq: number): void {
    this.pending.close(seq);
  }

  /** Ask mode: the user said "do it" for a pending fs/ or terminal/ request. */
  async serve(id: string | number): Promise<Ack<{ seq: number }>> {
    // The browser names the request by its JSON-RPC id; the newest one with that id is the one the agent waits on.
    const frame = this.newestPending(id);
    if (!frame)
      return {
        ok: false,
        error: { code: "invalid_payload", message: `no pending agent request with id ${JSON.stringify(id)}` },
      };
    if (!SERVED_METHODS.includes(frame.method!)) {
      return {
        ok: false,
        error: { code: "invalid_payload", message: `${frame.method} is answered by sending a response frame` },
      };
    }
    return this.answer(frame);
  }

  private apply(frame: Frame): void {
    if (this.suspended) return;
    if (this.unknown(frame.method!)) {
      // Nothing to carry out: answering is refusing.
      if (this.policies[UNKNOWN_METHODS] !== "ask") this.respond(frame, { error: methodNotFound(frame.method!) });
      return;
    }
    // Not advertised: nothing to ask or carry out.
    const refused = notAdvertised(frame.method!, this.advertised);
    if (refused) {
      this.respond(frame, { error: refused });
      return;
    }
    const policy = this.policies[frame.method!];
    if (policy === "auto") void this.answer(frame);
    else if (policy === "deny")
      this.respond(frame, this.spec.answer(frame.method!, paramsOf(frame), "deny") ?? { error: denied(frame.method!) });
  }

  private async answer(frame: Frame): Promise<Ack<{ seq: number }>> {
    const method = frame.method!;
    const params = paramsOf(frame);
    // What the protocol decides itself (app-server approvals); else the generic answers below.
    const own = this.spec.answer(method, params, "auto");
    if (own) return this.respond(frame, own);
    if (method === CLIENT_METHODS.session_request_permission) {
      const bad = agentRequestError(method, params);
      return this.respond(frame, bad ? { error: bad } : { result: autoPermission(params as RequestPermissionRequest) });
    }
    if (method === CLIENT_METHODS.elicitation_create) return this.respond(frame, { result: { action: "decline" } });
    // Checked again here: serve() reaches this while policies stand aside.
    const refused = notAdvertised(method, this.advertised);
    if (refused) return this.respond(frame, { error: refused });
    const services = this.services;
    if (!services) return { ok: false, error: { code: "no_agent", message: "no agent is running" } };
    try {
      return this.respond(frame, { result: await services.handle(method, params) });
    } catch (err) {
      const body = err instanceof ServiceError ? err.body : { code: -32603, message: (err as Error).message };
      return this.respond(frame, { error: body });
    }
  }

  private unknown(method: string): boolean {
    return isUnknownMethodIn(this.spec.name, method);
  }

  private respond(frame: Frame, outcome: { result: unknown } | { error: unknown }): Ack<{ seq: number }> {
    // Answered meanwhile (by the user, or a policy change raced a served request).
    if (!this.pending.has(frame.seq)) {
      return { ok: false, error: { code: "invalid_payload", message: "the request was already answered" } };
    }
    return this.send({ jsonrpc: "2.0", id: frame.id, ...outcome });
  }
}

const paramsOf = (frame: Frame) => (frame.message as { params?: Record<string, unknown> }).params;
