/**
 * The server's connections, so that no client can hold them all:
 *
 * - **Per address**: an address (client-address.ts: an IPv4 address or an IPv6 /64) holding
 *   `maxConnectionsPerAddress` connections has its next one reset at once (TCP RST), before anything is
 *   read from it; other addresses are served as before. A reset rather than a 503: a 503 needs the
 *   request, so the connection would stay open (and hold its slot and its descriptor) until its headers
 *   arrived, up to the headers' timeout, which is what a client holding connections open wants; a reset
 *   costs the accept alone, and the client's own error says at once that it was refused. Trusted proxies'
 *   connections are not capped per address: they stand for many clients.
 * - **Idle ones go first when slots run low**: past `closeIdleAbove` open connections, the connections
 *   without a request in progress are closed, the longest idle first, down to the mark, so that the
 *   `maxConnections - closeIdleAbove` slots above it stay free for new clients as long as anything is
 *   idle. A keep-alive connection is idle between two requests (and a new one until its first request
 *   is read, so that connections opened and left silent go too); one with a request in progress is never
 *   closed here, nor the new connection the room is made for.
 *
 * Over TLS, requests name the TLS socket and not the TCP connection counted here: the two are matched by
 * the peer's address and port.
 */
import type { Socket } from 'node:net';
import { addressKey, type TrustedProxies } from './client-address';

export interface SlotLimits {
  maxConnectionsPerAddress: number;
  closeIdleAbove: number;
}

interface Slot {
  /** The address it counts under; undefined for a trusted proxy's. */
  key: string | undefined;
  /** What to destroy to close it (the TLS socket once known). */
  socket: Socket;
  requests: number;
  shed: boolean;
}

const peerOf = (socket: Socket) => `${socket.remoteAddress} ${socket.remotePort}`;

export class ConnectionSlots {
  private readonly perAddress = new Map<string, number>();
  /** Connections without a request in progress, the longest idle first (a Set iterates in insertion order). */
  private readonly idle = new Set<Slot>();
  private readonly slots = new WeakMap<object, Slot>();
  /** TLS only: connections by peer, until their TLS socket is matched to them. */
  private readonly byPeer = new Map<string, Slot>();
  private openCount = 0;
  private closing = 0;

  constructor(
    private readonly limits: SlotLimits,
    private readonly trusted: TrustedProxies,
    private readonly tls: boolean,
  ) {}

  get open(): number {
    return this.openCount;
  }

  /** A TCP connection accepted: counted, or reset when its address holds its share already. */
  accepted(socket: Socket): void {
    const key = this.trusted.has(socket.remoteAddress) ? undefined : addressKey(socket.remoteAddress);
    const held = key === undefined ? 0 : (this.perAddress.get(key) ?? 0);
    if (key !== undefined && held >= this.limits.maxConnectionsPerAddress) {
      socket.resetAndDestroy();
      return;
    }
    if (key !== undefined) this.perAddress.set(key, held + 1);
    const slot: Slot = { key, socket, requests: 0, shed: false };
    this.openCount += 1;
    this.slots.set(socket, slot);
    this.idle.add(slot);
    const peer = this.tls ? peerOf(socket) : undefined;
    if (peer !== undefined) this.byPeer.set(peer, slot);
    socket.once('close', () => this.closed(slot, peer));
    this.makeRoom(slot);
  }

  /** A request arrived on `socket` (the TLS socket over TLS). */
  requestStarted(socket: Socket): void {
    const slot = this.slotOf(socket);
    if (!slot) return;
    slot.requests += 1;
    this.idle.delete(slot);
  }

  /** Its answer is written or abandoned; with no other request in progress, the connection is idle from now. */
  requestEnded(socket: Socket): void {
    const slot = this.slotOf(socket);
    if (!slot) return;
    slot.requests -= 1;
    if (slot.requests === 0 && !slot.shed && !socket.destroyed) this.idle.add(slot);
  }

  private slotOf(socket: Socket): Slot | undefined {
    const known = this.slots.get(socket);
    if (known || !this.tls) return known;
    const slot = this.byPeer.get(peerOf(socket));
    if (slot) {
      this.byPeer.delete(peerOf(socket));
      slot.socket = socket;
      this.slots.set(socket, slot);
    }
    return slot;
  }

  /**
   * Closes the longest idle connections while more than `closeIdleAbove` are open and not already closing;
   * never `newcomer`, the connection that made the count pass the mark: room is made for it.
   */
  private makeRoom(newcomer: Slot): void {
    for (const slot of this.idle) {
      if (this.openCount - this.closing <= this.limits.closeIdleAbove) return;
      if (slot === newcomer) continue;
      this.idle.delete(slot);
      slot.shed = true;
      this.closing += 1;
      slot.socket.destroy();
    }
  }

  private closed(slot: Slot, peer: string | undefined): void {
    this.openCount -= 1;
    if (slot.shed) this.closing -= 1;
    this.idle.delete(slot);
    if (peer !== undefined && this.byPeer.get(peer) === slot) this.byPeer.delete(peer);
    if (slot.key === undefined) return;
    const held = (this.perAddress.get(slot.key) ?? 1) - 1;
    if (held === 0) this.perAddress.delete(slot.key);
    else this.perAddress.set(slot.key, held);
  }
}
