import asyncHooks from "node:async_hooks";
import { syncBuiltinESMExports } from "node:module";

/**
 * Every AsyncLocalStorage of the process carried in one of Node's (docs/decisions/one-async-context.md).
 * On Node 20 each enabled AsyncLocalStorage copies its store onto every promise the process creates,
 * through one shared function whose property accesses turn megamorphic past four stores: a process that
 * has served one page has seven on (Next's, React's, the server's request context), and an API request
 * paid 30 to 160 µs of CPU for them. Here each instance is a slot in a frame, the frame is the store of
 * the one real AsyncLocalStorage, and a promise copies one reference whatever the number of stores.
 *
 * What an instance does is Node's: `run`, `exit`, `enterWith` and `getStore` for this store only, the
 * others unchanged; `bind` and `snapshot` capture the frame and with it every store. Where it differs
 * (none of it used by Next.js or React, which call `run`, `exit` and `getStore`): an `enterWith` inside
 * another storage's `run` or `exit` ends when that callback returns; a context saved earlier and entered
 * inside `exit` sees the store; after `disable()` and a later `run`, a context begun while disabled
 * sees the store it had before.
 */
// Node's own class, read before shareAsyncLocalStorage() replaces the module's export.
const NodeAsyncLocalStorage = asyncHooks.AsyncLocalStorage;
const frames = new NodeAsyncLocalStorage<readonly unknown[]>();
let slots = 0;

type Frame = readonly unknown[] | undefined;

/** A copy of `frame` with this slot set: frames are never changed once a context holds them. */
function withSlot(frame: Frame, slot: number, store: unknown): unknown[] {
  const copy = frame?.slice() ?? [];
  copy[slot] = store;
  return copy;
}

export class SharedAsyncLocalStorage<T> {
  readonly #slot = slots++;
  #isEnabled = true;

  static bind<F extends (...args: never[]) => unknown>(fn: F): F {
    return NodeAsyncLocalStorage.bind(fn);
  }

  static snapshot(): <R, A extends unknown[]>(fn: (...args: A) => R, ...args: A) => R {
    return NodeAsyncLocalStorage.snapshot();
  }

  /** This storage's store in `frame`: none while disabled. */
  #storeIn(frame: Frame): T | undefined {
    return this.#isEnabled ? (frame?.[this.#slot] as T | undefined) : undefined;
  }

  getStore(): T | undefined {
    return this.#storeIn(frames.getStore());
  }

  run<R, A extends unknown[]>(store: T, callback: (...args: A) => R, ...args: A): R {
    const frame = frames.getStore();
    // As Node's: no new context when the store is already this one.
    if (Object.is(store, this.#storeIn(frame))) return callback(...args);
    this.#isEnabled = true;
    return frames.run(withSlot(frame, this.#slot, store), callback, ...args);
  }

  exit<R, A extends unknown[]>(callback: (...args: A) => R, ...args: A): R {
    const frame = frames.getStore();
    if (this.#storeIn(frame) === undefined) return callback(...args);
    return frames.run(withSlot(frame, this.#slot, undefined), callback, ...args);
  }

  enterWith(store: T): void {
    this.#isEnabled = true;
    frames.enterWith(withSlot(frames.getStore(), this.#slot, store));
  }

  disable(): void {
    this.#isEnabled = false;
  }
}

/**
 * Stores switched off while no request needs them (docs/decisions/one-async-context.md, "Switched off
 * when idle"). Once switched on, Node 20's one real storage runs promise hooks for every promise of the
 * process, API requests on the plain path included, which need no store: about 24 µs of an
 * `accounts/list`. The server holds the stores for each request that uses them (Next.js's pages and
 * routes, the fast path's Web entry); when none has held them for `idleMs`, the real storage is
 * disabled, which takes Node's hooks off, and the next `run` switches it on again. Work a request left
 * running past that (nothing Kassa's code or Next.js's reads a store there) sees no store, as work
 * started outside any request does. Without switchOffStoresWhenIdle (the worker, the tests), stores
 * stay on as Node's do.
 */
let holds = 0;
let idleMs: number | undefined;
let idleTimer: NodeJS.Timeout | undefined;

/** Armed only while nothing holds the stores; a hold clears it. */
function switchOff(): void {
  idleTimer = undefined;
  frames.disable();
}

function armIdleTimer(): void {
  if (idleMs === undefined || holds > 0 || idleTimer) return;
  idleTimer = setTimeout(switchOff, idleMs);
  idleTimer.unref();
}

/** Switches the stores off once no request has held them for `ms` (from now on, and each time after). */
export function switchOffStoresWhenIdle(ms: number): void {
  idleMs = ms;
  armIdleTimer();
}

/** Keeps the stores on until the returned release is called (once; later calls do nothing). */
export function holdStores(): () => void {
  holds++;
  if (idleTimer) {
    clearTimeout(idleTimer);
    idleTimer = undefined;
  }
  let isReleased = false;
  return () => {
    if (isReleased) return;
    isReleased = true;
    holds--;
    armIdleTimer();
  };
}

/**
 * Makes every AsyncLocalStorage created from now on a SharedAsyncLocalStorage: Next.js's (it takes
 * `globalThis.AsyncLocalStorage` when set) and everything that reads `node:async_hooks`, React's
 * server renderer among them. Call before Next.js is imported; storages created earlier stay Node's.
 */
export function shareAsyncLocalStorage(): void {
  const shared = SharedAsyncLocalStorage as unknown as typeof NodeAsyncLocalStorage;
  (globalThis as { AsyncLocalStorage?: unknown }).AsyncLocalStorage = shared;
  // A plain property on Node 20, a getter without a setter from Node 22: defined, not assigned.
  Object.defineProperty(asyncHooks, "AsyncLocalStorage", {
    value: shared,
    writable: true,
    enumerable: true,
    configurable: true,
  });
  // `import { AsyncLocalStorage } from "node:async_hooks"` reads the same from now on.
  syncBuiltinESMExports();
}
