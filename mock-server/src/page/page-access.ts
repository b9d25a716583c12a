// Who may use the page. A browser on the developer's machine gets in once with the one-time key
// printed in the terminal (Jupyter's way), which becomes an HttpOnly, SameSite=Strict session
// cookie. Other websites the developer visits can still send requests to 127.0.0.1: they never
// carry the cookie (SameSite=Strict), are refused by the Origin check, and a DNS-rebound name
// (evil.example resolving to 127.0.0.1) fails the Host check, because only this machine's own
// addresses are accepted as Host.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { networkInterfaces } from "node:os";

const digest = (secret: string) => createHash("sha256").update(secret).digest();
const newSecret = () => randomBytes(32).toString("base64url");

/** Whether `secret` is one of `digests`, in time that does not depend on where they differ. */
function findDigest(digests: Iterable<Buffer>, secret: string): Buffer | undefined {
  const sought = digest(secret);
  let found: Buffer | undefined;
  // No early exit: every stored digest is compared.
  for (const stored of digests) if (timingSafeEqual(stored, sought)) found = stored;
  return found;
}

/** A bind address only this machine can reach. */
export const isThisMachineOnly = (host: string) => /^(127\.[0-9.]+|localhost|::1|\[::1\])$/i.test(host);

const isWildcard = (host: string) => host === "0.0.0.0" || host === "::" || host === "[::]";

/** The Host values that name this mock: loopback names, the bound address, and on a wildcard bind every local address. */
function ownHosts(bindHost: string, port: number): Set<string> {
  const names = new Set([
    "localhost",
    "127.0.0.1",
    "[::1]",
    bindHost.includes(":") && !bindHost.startsWith("[") ? `[${bindHost}]` : bindHost,
  ]);
  if (isWildcard(bindHost)) {
    for (const address of Object.values(networkInterfaces()).flat()) {
      if (address) names.add(address.family === "IPv6" ? `[${address.address}]` : address.address);
    }
  }
  return new Set([...names].map((name) => `${name}:${port}`));
}

export interface PageSession {
  /** A message for the next view (what the last change did, or why it failed). */
  flash?: { text: string; failed: boolean };
}

export class PageAccess {
  readonly #keys = new Set<Buffer>();
  readonly #sessions = new Map<Buffer, PageSession>();
  readonly #hosts: Set<string>;
  /** Cookies are not kept apart by port: two mocks on one machine need two names. */
  readonly cookieName: string;

  constructor(bindHost: string, port: number) {
    this.#hosts = ownHosts(bindHost, port);
    this.cookieName = `comments_mock_${port}`;
  }

  /** A new one-time sign-in key. */
  mintKey(): string {
    const key = newSecret();
    this.#keys.add(digest(key));
    return key;
  }

  /** Spends a sign-in key: the new session's cookie value, or undefined for a key unknown or already used. */
  redeem(key: string): string | undefined {
    const found = findDigest(this.#keys, key);
    if (found === undefined) return undefined;
    this.#keys.delete(found);
    const session = newSecret();
    this.#sessions.set(digest(session), {});
    return session;
  }

  /** The session of a request's cookie, if it has a valid one. */
  session(req: IncomingMessage): PageSession | undefined {
    const value = cookie(req.headers.cookie, this.cookieName);
    if (value === undefined) return undefined;
    const found = findDigest(this.#sessions.keys(), value);
    return found === undefined ? undefined : this.#sessions.get(found);
  }

  /** The Host header names this mock by one of its own addresses (not a DNS name that could be rebound). */
  isOwnHost(req: IncomingMessage): boolean {
    return req.headers.host !== undefined && this.#hosts.has(req.headers.host.toLowerCase());
  }

  /** The request comes from a page of this mock: browsers send Origin on every POST, other sites' forms and scripts carry theirs. */
  isSameOrigin(req: IncomingMessage): boolean {
    return req.headers.origin !== undefined && req.headers.origin === `http://${req.headers.host}`;
  }

  sessionCookie(value: string): string {
    // No Secure: the page is served over plain http on this machine.
    return `${this.cookieName}=${value}; Path=/; HttpOnly; SameSite=Strict`;
  }
}

function cookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}
