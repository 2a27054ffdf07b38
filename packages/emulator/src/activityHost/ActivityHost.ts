import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

import { WebSocketServer } from 'ws';

import type { ActivityInstance, ActivityInstances } from '../activities/ActivityInstances.js';
import type { EmulatorContext } from '../context.js';
import type { VoiceCalls } from '../voice/VoiceCalls.js';
import { CSP_REPORT_PATH } from '../activities/framePolicy.js';
import { readCspReport } from './cspReports.js';
import { readPickedImage } from './embeddedMedia.js';
import { EmbeddedConnection } from './EmbeddedConnection.js';
import { wireVoiceEvents } from './voiceEvents.js';
import { embeddedEntitlement, type ConsoleLine } from './embeddedCommands.js';
import { embeddedRelationship } from './embeddedRelationships.js';
import { participantsOf } from './embeddedUsers.js';
import { HOST_CSP, HOST_CSS, HOST_JS, HOST_PREFIX, hostPageHtml } from './hostPage.js';

/** The largest message a host page may send (a CAPTURE_LOG line and its framing fit well within it). */
const MAX_HOST_MESSAGE_BYTES = 256 * 1024;

/** How many frames one player may have open in one instance (windows, reloads). */
export const MAX_FRAMES_PER_PLAYER = 8;

/** The SDK's layout mode numbers. */
const LAYOUT_MODES = { focused: 0, pip: 1, grid: 2 } as const;

/** A change of how the client shows an instance's frames (see {@link ActivityHost.setLayout}). */
export interface ActivityLayoutChange {
  /** Only this player's frames; every player's when absent. */
  userId?: string;
  layoutMode?: keyof typeof LAYOUT_MODES;
  orientation?: 'portrait' | 'landscape';
}

/** How many console lines of each instance are kept (the oldest go first). */
export const CONSOLE_LINES_KEPT = 200;

/**
 * The emulated desktop client around Activities: on the proxy host it serves the host page (under
 * {@link HOST_PREFIX}, which no URL mapping may take) and its WebSocket, one {@link EmbeddedConnection} per
 * open frame, and sends each instance's participant changes to its frames.
 */
export class ActivityHost {
  readonly #ctx: EmulatorContext;
  readonly #instances: ActivityInstances;
  readonly #connections = new Set<EmbeddedConnection>();
  readonly #console = new Map<string, ConsoleLine[]>();
  readonly #wss = new WebSocketServer({ noServer: true, maxPayload: MAX_HOST_MESSAGE_BYTES });
  #nextId = 1;

  constructor(ctx: EmulatorContext, instances: ActivityInstances, calls: VoiceCalls) {
    this.#ctx = ctx;
    this.#instances = instances;
    wireVoiceEvents(ctx, calls, (evt, match, data, userId) => this.dispatchWhere(evt, match, data, userId));
    this.#wss.on('error', () => {
      // Only emitted in server mode, which noServer does not use; a listener keeps it from being fatal.
    });
    instances.on('participants', (instance) => {
      this.#participantsChanged(instance);
    });
    ctx.premium.on('entitlementCreated', (entitlement) => {
      if (entitlement.userId === null) return;
      this.dispatchToUser(entitlement.userId, 'ENTITLEMENT_CREATE', () => ({
        entitlement: embeddedEntitlement(entitlement, ctx.store.state.application.id),
      }));
    });
    // A friend's request, acceptance, removal or block, and a friend's new presence, reach the player's frames.
    ctx.relationships.on('changed', (change) => {
      if (change.graph !== 'discord') return;
      this.dispatchToUser(change.ownerId, 'RELATIONSHIP_UPDATE', () =>
        embeddedRelationship(ctx, change.record ?? { targetId: change.targetId, type: 0 }),
      );
    });
    ctx.presence.on('changed', (userId) => {
      // Presence changes with every session and activity: with no frame open there is no one to tell.
      if (this.#connections.size === 0) return;
      for (const friendId of ctx.relationships.friendsOf(userId)) {
        const record = ctx.relationships.get('discord', friendId, userId);
        if (record)
          this.dispatchToUser(friendId, 'RELATIONSHIP_UPDATE', () => embeddedRelationship(ctx, record));
      }
    });
    instances.on('ended', (instance) => {
      this.#console.delete(instance.id);
      ctx.log.line('activity', `instance ${instance.id} ended`);
    });
  }

  /** Whether a path (of a request to the proxy host) is the host's. */
  static owns(path: string): boolean {
    return path === HOST_PREFIX || path.startsWith(`${HOST_PREFIX}/`) || path.startsWith(`${HOST_PREFIX}?`);
  }

  /** Answers the host page and its assets. */
  handle(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const headers = {
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy': HOST_CSP,
    };
    if (path === CSP_REPORT_PATH && req.method === 'POST') {
      this.#cspReport(req, res);
      return;
    }
    if (path === `${HOST_PREFIX}/upload` && req.method === 'POST') {
      this.#upload(req, res);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...headers, allow: 'GET, HEAD' }).end();
      return;
    }
    const body =
      path === HOST_PREFIX
        ? { type: 'text/html; charset=utf-8', text: hostPageHtml() }
        : path === `${HOST_PREFIX}/host.js`
          ? { type: 'text/javascript; charset=utf-8', text: HOST_JS }
          : path === `${HOST_PREFIX}/host.css`
            ? { type: 'text/css; charset=utf-8', text: HOST_CSS }
            : undefined;
    if (!body) {
      res.writeHead(404, { ...headers, 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    res.writeHead(200, { ...headers, 'content-type': body.type });
    res.end(req.method === 'HEAD' ? undefined : body.text);
  }

  /**
   * A violation report of a game's document: the frame that made the request tells its host page (which logs
   * it in the player's console) and the emulator's log, with the URL mapping that would allow it.
   */
  #cspReport(req: IncomingMessage, res: ServerResponse): void {
    void readCspReport(req).then((blocked) => {
      res.writeHead(blocked ? 204 : 400, { 'cache-control': 'no-store' }).end();
      if (!blocked) return;
      const frame = [...this.#connections].find((c) => c.frameId === blocked.frameId);
      if (frame) frame.blocked(blocked);
      else this.#ctx.log.line('activity', `blocked ${blocked.directive} ${blocked.url}: ${blocked.hint}`);
    });
  }

  /** An image the host page's file picker uploads for a frame's INITIATE_IMAGE_UPLOAD (`?id=` names it). */
  #upload(req: IncomingMessage, res: ServerResponse): void {
    const id = new URL(req.url ?? '/', 'http://host').searchParams.get('id') ?? '';
    const frame = [...this.#connections].find((c) => c.awaitsUpload(id));
    if (!frame) {
      req.resume();
      res.writeHead(404, { 'content-type': 'text/plain' }).end('No file picker is open\n');
      return;
    }
    void readPickedImage(req).then((image) => {
      if (typeof image === 'string') {
        this.#ctx.log.line('activity', `frame ${frame.id}: upload refused (${image})`);
        res.writeHead(400, { 'content-type': 'text/plain', connection: 'close' }).end(`${image}\n`);
        return;
      }
      frame.uploaded(id, image);
      res.writeHead(204).end();
    });
  }

  /** Takes the host page's WebSocket; a missing or stale ticket is refused with 403 and a log line. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => {
      // A client that resets during the handshake must not take the process down.
    });
    const url = new URL(req.url ?? '/', 'http://host');
    const pass =
      url.pathname === `${HOST_PREFIX}/socket`
        ? this.#instances.redeem(url.searchParams.get('ticket') ?? '')
        : undefined;
    const user = pass && this.#ctx.store.user(pass.userId);
    if (!pass || !user || user.banned) {
      this.#ctx.log.line('activity', 'host socket refused: no live launch for its ticket');
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const open = [...this.#connections].filter(
      (c) => c.instance === pass.instance && c.user.id === user.id,
    ).length;
    if (open >= MAX_FRAMES_PER_PLAYER) {
      this.#ctx.log.line(
        'activity',
        `host socket refused: ${user.username} has ${open} frames open in the instance`,
      );
      socket.end('HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.#wss.handleUpgrade(req, socket, head, (ws) => {
      const id = String(this.#nextId);
      this.#nextId += 1;
      const connection = new EmbeddedConnection(
        id,
        ws,
        this.#ctx,
        { instance: pass.instance, user, customId: pass.customId },
        {
          instances: this.#instances,
          captureLog: (instance, line) => this.#keep(instance, line),
          joined: (c) => c.showParticipants(this.#names(c.instance)),
        },
      );
      this.#connections.add(connection);
      ws.on('close', () => this.#connections.delete(connection));
    });
  }

  /** The console lines the frames of an instance captured, oldest first. */
  consoleOf(instanceId: string): ConsoleLine[] {
    return (this.#console.get(instanceId) ?? []).map((line) => ({ ...line }));
  }

  /**
   * Sends an event to the frames of `userId` subscribed to it, building its data only when one is; returns how
   * many got it.
   */
  dispatchToUser(userId: string, evt: string, data: () => unknown): number {
    const frames = [...this.#connections].filter(
      (c) => c.user.id === userId && c.ready && c.subscriptions.has(evt),
    );
    if (frames.length === 0) return 0;
    const built = data();
    for (const c of frames) c.dispatch(evt, built);
    return frames.length;
  }

  /**
   * Sends an event to the ready frames subscribed to it whose subscription arguments match (`channel_id`,
   * `guild_id`) and, when given, whose player is `userId`; builds the data only when one is.
   */
  dispatchWhere(evt: string, match: Record<string, string>, data: () => unknown, userId?: string): number {
    const frames = [...this.#connections].filter((c) => {
      if (!c.ready || !c.subscriptions.has(evt) || (userId !== undefined && c.user.id !== userId))
        return false;
      const args = c.subscriptionArgs.get(evt) ?? {};
      return Object.entries(match).every(([name, value]) => args[name] === value);
    });
    if (frames.length === 0) return 0;
    const built = data();
    if (built === null) return 0;
    for (const c of frames) c.dispatch(evt, built);
    return frames.length;
  }

  /**
   * The player's client changed how it shows the instance's frames (the dashboard's control): its layout
   * (ACTIVITY_LAYOUT_MODE_UPDATE: 0 focused, 1 picture in picture, 2 grid) and the screen's orientation
   * (ORIENTATION_UPDATE: 0 portrait, 1 landscape, with the deprecated string). Returns how many frames were told.
   */
  setLayout(instanceId: string, change: ActivityLayoutChange): number {
    let told = 0;
    for (const c of this.#connections) {
      if (c.instance.id !== instanceId || (change.userId !== undefined && c.user.id !== change.userId))
        continue;
      if (change.layoutMode !== undefined)
        told += Number(
          c.dispatch('ACTIVITY_LAYOUT_MODE_UPDATE', { layout_mode: LAYOUT_MODES[change.layoutMode] }),
        );
      if (change.orientation !== undefined)
        told += Number(
          c.dispatch('ORIENTATION_UPDATE', {
            screen_orientation: change.orientation === 'portrait' ? 0 : 1,
            orientation: change.orientation,
          }),
        );
    }
    return told;
  }

  /** Closes every frame (the emulator is stopping). */
  close(): void {
    for (const c of this.#connections) c.close(1000, 'The client is shutting down');
    this.#wss.close();
  }

  #keep(instance: ActivityInstance, line: ConsoleLine): void {
    let lines = this.#console.get(instance.id);
    if (!lines) {
      lines = [];
      this.#console.set(instance.id, lines);
    }
    lines.push(line);
    if (lines.length > CONSOLE_LINES_KEPT) lines.shift();
  }

  #names(instance: ActivityInstance): string[] {
    return participantsOf(this.#ctx, instance).map((p) => String(p.global_name ?? p.username));
  }

  #participantsChanged(instance: ActivityInstance): void {
    const participants = participantsOf(this.#ctx, instance);
    const names = this.#names(instance);
    for (const c of this.#connections) {
      if (c.instance !== instance) continue;
      c.dispatch('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE', { participants });
      c.showParticipants(names);
    }
  }
}
