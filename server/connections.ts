import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** One open connection (the server's `connection` event, until the socket closes): its responses not yet finished, and since when it has had none. */
type Connection = {
  socket: Socket;
  /** Usually none or one; more when a client pipelines requests. */
  responses: ServerResponse[];
  idleAt: number;
  /** The socket's bytesRead when it fell idle: more since means a next request is arriving. */
  bytesReadWhenIdle: number;
};

const CONNECTION = Symbol("kassa.connection");
type TrackedResponse = ServerResponse & { [CONNECTION]: Connection };

function responseClosed(this: ServerResponse): void {
  const connection = (this as TrackedResponse)[CONNECTION];
  const { responses } = connection;
  const at = responses.indexOf(this);
  if (at >= 0) responses.splice(at, 1);
  if (responses.length === 0) {
    connection.idleAt = Date.now();
    connection.bytesReadWhenIdle = connection.socket.bytesRead;
  }
}

/**
 * The server's open connections and the requests in flight on each, for the clean stop
 * (docs/decisions/stopping-the-server.md): a stop waits for the responses and closes the connections
 * that stay idle.
 *
 * A request only writes fields of its connection's record; connections are added to and removed from
 * the process-wide map, requests never are. V8 keeps whatever was deleted from a long-lived Set or
 * Map alive through its young-generation collections: with every response added to and deleted from
 * a Set, each finished request (its headers, body and buffers) was promoted to the old generation,
 * and each minor collection took 3.9 ms instead of 1.8 (docs/BENCHMARKS.md, "Requests the collector kept").
 */
export class ConnectionTracker {
  readonly #connections = new Map<Socket, Connection>();

  /** For the server's `connection` event. */
  opened(socket: Socket): Connection {
    const connection: Connection = { socket, responses: [], idleAt: Date.now(), bytesReadWhenIdle: 0 };
    // A socket already gone (closed before its first request was handled) has no `close` to come.
    if (socket.destroyed) return connection;
    this.#connections.set(socket, connection);
    socket.once("close", () => this.#connections.delete(socket));
    return connection;
  }

  /**
   * For each request, before it is handled: in flight until its response closes. The response
   * carries its connection's record, so one listener shared by all serves every response, with no
   * closure per request.
   */
  started(req: IncomingMessage, res: ServerResponse): void {
    const connection = this.#connections.get(req.socket) ?? this.opened(req.socket);
    connection.responses.push(res);
    (res as TrackedResponse)[CONNECTION] = connection;
    // `close` comes once per response, so `on` will do (`once` would wrap the listener per request).
    res.on("close", responseClosed);
  }

  /** Responses not yet finished. */
  get inFlight(): number {
    let count = 0;
    for (const { responses } of this.#connections.values()) count += responses.length;
    return count;
  }

  /** Open connections, idle or not. */
  get open(): number {
    return this.#connections.size;
  }

  /** Calls `visit` with every response not yet finished. */
  forEachInFlight(visit: (res: ServerResponse) => void): void {
    for (const { responses } of this.#connections.values()) for (const res of responses) visit(res);
  }

  /**
   * Closes the connections with no request in flight for longer than `idleMs` unless bytes of a next
   * request arrived meanwhile; returns how many it closed.
   */
  closeIdle(idleMs: number, now = Date.now()): number {
    let closed = 0;
    for (const connection of this.#connections.values()) {
      const { socket } = connection;
      const isIdle = connection.responses.length === 0 && now - connection.idleAt > idleMs;
      if (isIdle && socket.bytesRead === connection.bytesReadWhenIdle) {
        socket.destroy();
        closed++;
      }
    }
    return closed;
  }
}
