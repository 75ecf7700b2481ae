import "server-only";

import { type CheckoutView, checkoutView } from "@/lib/checkout/checkout-view";
import { systemClock } from "@/lib/clock";
import type { Db, Driver } from "@/lib/db/client";
import type { KassaError } from "@/lib/errors";
import type { InvoiceSettings } from "@/lib/invoices/create-invoice";
import { type InvoiceRecord, loadInvoiceByToken } from "@/lib/invoices/load-invoice";
import { secondsLeft } from "@/lib/invoices/to-invoice-response";
import { CHECKOUT_CHANNEL, type CheckoutChange, parseCheckoutChange } from "./checkout-channel";
import { listenOnChannel } from "./listen-on-channel";
import { createStreamAdmission, type StreamLimits } from "./stream-admission";

/** Where one stream's bytes go (encoded once for all the viewers of a change); `end` closes it from the server's side. */
export type StreamSink = { send: (bytes: Uint8Array) => void; end: () => void };

type Viewer = { sink: StreamSink; address: string; openedAt: number; nextBeatAt: number };

/** Everything the hub holds for one invoice with at least one open stream. */
type Watch = {
  token: string;
  viewers: Set<Viewer>;
  record?: InvoiceRecord;
  view?: CheckoutView;
  /** The view without its clock fields: a change is sent only when this differs. */
  key?: string;
  isComputing: boolean;
  isDirty: boolean;
};

export type CheckoutHubOptions = {
  driver: Driver;
  db: Db;
  settings: InvoiceSettings;
  limits: StreamLimits;
  heartbeatMs?: number;
  maxOpenMs?: number;
};

export type CheckoutHub = ReturnType<typeof createCheckoutHub>;

const HEARTBEAT_EVERY_MS = 15_000;
const MAX_OPEN_MS = 30 * 60_000;

const encoder = new TextEncoder();
const event = (view: CheckoutView) => encoder.encode(`event: invoice\ndata: ${JSON.stringify(view)}\n\n`);
const HEARTBEAT = encoder.encode(": heartbeat\n\n");

/**
 * The checkout streams of one process (DESIGN.md section 1): the database announces each change to
 * one listening session, and the view is computed once per change for all open streams; a timer
 * beats heartbeats. A new price at the end of a rate lock is the re-pricing job's write
 * (lib/invoices/reprice-invoice.ts), announced like any other change: the hub only reads.
 * docs/decisions/checkout-streams.md.
 */
export function createCheckoutHub(options: CheckoutHubOptions) {
  const { db, settings } = options;
  const clock = settings.clock ?? systemClock;
  const maxOpenMs = options.maxOpenMs ?? MAX_OPEN_MS;
  const watches = new Map<string, Watch>();
  const admission = createStreamAdmission(options.limits);
  let isStopped = false;

  const endWatch = (watch: Watch) => {
    watches.delete(watch.token);
    for (const viewer of watch.viewers) {
      admission.release(watch.token, viewer.address);
      viewer.sink.end();
    }
    watch.viewers.clear();
  };

  /** The view with its clock fields as of now, for a viewer that joins after it was computed. */
  const current = (watch: Watch): CheckoutView | undefined => {
    if (!watch.view || !watch.record) return undefined;
    const now = clock.now();
    return {
      ...watch.view,
      seconds_left: secondsLeft(watch.record, now),
      server_time: Math.floor(now.getTime() / 1000),
    };
  };

  const compute = async (watch: Watch) => {
    const record = await loadInvoiceByToken(db, watch.token);
    if (!record) return endWatch(watch);
    const view = await checkoutView(db, record, settings);
    if (watches.get(watch.token) !== watch) return;
    const { server_time: _time, seconds_left: _left, ...lasting } = view;
    const key = JSON.stringify(lasting);
    watch.record = record;
    watch.view = view;
    if (key !== watch.key) {
      watch.key = key;
      const bytes = event(view);
      for (const viewer of watch.viewers) viewer.sink.send(bytes);
    }
    if (view.status === "confirmed") return endWatch(watch);
  };

  /** One computation at a time per invoice; changes announced meanwhile fold into one more. */
  const refresh = async (watch: Watch) => {
    if (watch.isComputing) {
      watch.isDirty = true;
      return;
    }
    watch.isComputing = true;
    try {
      do {
        watch.isDirty = false;
        await compute(watch);
      } while (watch.isDirty && watches.get(watch.token) === watch);
    } catch (error) {
      // A database outage: the streams stay open and the next announcement tries again.
      console.error("[checkout] the invoice view could not be computed:", (error as Error).message);
    } finally {
      watch.isComputing = false;
    }
  };

  const onChange = (change: CheckoutChange) => {
    if (change.kind === "invoice") {
      const watch = watches.get(change.token);
      if (watch) void refresh(watch);
      return;
    }
    // A new sandbox block: only invoices showing payments have confirmations to move, those in its
    // currency or any still confirming (a payment may be in a coin the customer switched away from).
    for (const watch of watches.values()) {
      const payments = watch.view?.payments ?? [];
      const isMoved =
        watch.view?.sender_currency === change.currency || payments.some((p) => !p.is_confirmed);
      if (payments.length > 0 && isMoved) void refresh(watch);
    }
  };

  const listening = listenOnChannel(options.driver, CHECKOUT_CHANNEL, {
    onMessage: (payload) => {
      const change = parseCheckoutChange(payload);
      if (change) onChange(change);
    },
    onGap: () => {
      for (const watch of watches.values()) void refresh(watch);
    },
  });

  // Each stream beats on its own schedule from when it opened, looked at every second: ten thousand
  // streams opened together still spread their beats, instead of one write burst to all of them.
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_EVERY_MS;
  const heartbeat = setInterval(
    () => {
      const now = clock.now().getTime();
      for (const watch of watches.values())
        for (const viewer of watch.viewers) {
          if (viewer.openedAt <= now - maxOpenMs) close(watch, viewer);
          else if (viewer.nextBeatAt <= now) {
            viewer.nextBeatAt = now + heartbeatMs;
            viewer.sink.send(HEARTBEAT);
          }
        }
    },
    Math.min(1_000, heartbeatMs),
  );
  heartbeat.unref();

  function close(watch: Watch, viewer: Viewer) {
    if (!watch.viewers.delete(viewer)) return;
    admission.release(watch.token, viewer.address);
    viewer.sink.end();
    if (watch.viewers.size === 0 && watches.get(watch.token) === watch) watches.delete(watch.token);
  }

  return {
    /** Resolves once this process listens: a view computed after it cannot miss a later change. */
    ready: listening.then(() => undefined),

    /**
     * Opens one stream on an invoice known to exist: its current view at once, then every change.
     * Answers the error to send instead when a cap is reached. `close` is for the client's side.
     */
    open(input: { token: string; address: string; sink: StreamSink }): { close: () => void } | KassaError {
      // The engine is stopping: the stream ends at once and the browser reconnects to another process.
      if (isStopped) {
        input.sink.end();
        return { close: () => {} };
      }
      const refusal = admission.admit(input.token, input.address);
      if (refusal) return refusal;
      const openedAt = clock.now().getTime();
      const viewer: Viewer = {
        sink: input.sink,
        address: input.address,
        openedAt,
        nextBeatAt: openedAt + heartbeatMs,
      };
      let watch = watches.get(input.token);
      if (!watch) {
        watch = {
          token: input.token,
          viewers: new Set(),
          isComputing: false,
          isDirty: false,
        };
        watches.set(input.token, watch);
        watch.viewers.add(viewer);
        void refresh(watch);
      } else {
        watch.viewers.add(viewer);
        const view = current(watch);
        if (view) viewer.sink.send(event(view));
      }
      const joined = watch;
      return { close: () => close(joined, viewer) };
    },

    /** Whether the invoice has open streams here (so it exists: an invoice is never deleted). */
    isWatching: (token: string) => watches.has(token),

    openCount: () => admission.openCount(),

    /** Ends every stream and stops listening (the engine stops). */
    async stop(): Promise<void> {
      isStopped = true;
      clearInterval(heartbeat);
      for (const watch of [...watches.values()]) endWatch(watch);
      await (await listening.catch(() => undefined))?.stop();
    },
  };
}
