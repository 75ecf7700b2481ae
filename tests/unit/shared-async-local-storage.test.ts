import { AsyncLocalStorage, AsyncResource } from "node:async_hooks";
import { spawnSync } from "node:child_process";
import { EventEmitter } from "node:events";
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { SharedAsyncLocalStorage } from "@/server/shared-async-local-storage";
import { TSX_FLAGS } from "../../scripts/tsx-flags.mjs";

// The server makes every AsyncLocalStorage of the process a SharedAsyncLocalStorage (Next's and
// React's included), so each scenario below runs twice, once on Node's own class, which is the
// expected answer, and once on the shared one; the traces must be equal.
type Storage = typeof AsyncLocalStorage;
type Trace = unknown[];

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

const scenarios: Record<string, (Storage: Storage, trace: Trace) => Promise<void>> = {
  "nested runs of two storages, across awaits, timers, ticks and events": async (Storage, trace) => {
    const request = new Storage<string>();
    const work = new Storage<string>();
    const seen = () => trace.push([request.getStore(), work.getStore()]);
    seen();
    await request.run("req-1", async () => {
      seen();
      await work.run("work-a", async () => {
        seen();
        await null;
        seen();
        await tick();
        seen();
        await new Promise<void>((resolve) =>
          setImmediate(() => {
            seen();
            resolve();
          }),
        );
        await new Promise<void>((resolve) =>
          process.nextTick(() => {
            seen();
            resolve();
          }),
        );
        queueMicrotask(seen);
        await nextTurn();
      });
      seen();
      const emitter = new EventEmitter();
      emitter.on("event", seen);
      await work.run("work-b", async () => emitter.emit("event"));
      await Promise.resolve().then(seen);
    });
    seen();
  },

  "contexts started at once keep their own stores": async (Storage, trace) => {
    const request = new Storage<number>();
    const results = await Promise.all(
      [1, 2, 3].map((n) =>
        request.run(n, async () => {
          await tick();
          await nextTurn();
          return request.getStore();
        }),
      ),
    );
    trace.push(results, request.getStore());
  },

  "exit hides one storage inside its callback and what it starts": async (Storage, trace) => {
    const request = new Storage<string>();
    const work = new Storage<string>();
    const seen = (label: string) => trace.push([label, request.getStore(), work.getStore()]);
    await request.run("req", () =>
      work.run("work", async () => {
        const inside = request.exit(async () => {
          seen("exit, sync");
          await tick();
          seen("exit, after await");
          return "exit's result";
        });
        seen("after exit returned");
        trace.push(await inside);
        seen("after exit settled");
      }),
    );
    trace.push(request.exit(() => "exit without a store"));
  },

  "enterWith holds for the rest of the call and what it starts": async (Storage, trace) => {
    const request = new Storage<string>();
    const seen = (label: string) => trace.push([label, request.getStore()]);
    await request.run("outer", async () => {
      await (async () => {
        await null;
        request.enterWith("entered");
        seen("after enterWith");
        await tick();
        seen("after await");
      })();
      seen("caller after the call");
    });
    seen("outside");
  },

  "run hands over arguments and results, and restores the store when the callback throws": async (
    Storage,
    trace,
  ) => {
    const request = new Storage<string>();
    trace.push(request.run("a", (x: number, y: number) => [request.getStore(), x + y], 2, 3));
    request.run("outer", () => {
      try {
        request.run("inner", () => {
          throw new Error("refused");
        });
      } catch (error) {
        trace.push((error as Error).message, request.getStore());
      }
      const same = request.getStore();
      trace.push(request.run(same!, () => request.getStore()));
    });
    trace.push(request.getStore());
  },

  "bind, snapshot and AsyncResource carry every store": async (Storage, trace) => {
    const request = new Storage<string>();
    const work = new Storage<string>();
    const read = () => [request.getStore(), work.getStore()];
    const [bound, snapshot, resource] = request.run("req", () =>
      work.run("work", () => [Storage.bind(read), Storage.snapshot(), new AsyncResource("test")]),
    );
    await request.run("other", async () => {
      trace.push(bound(), snapshot(read), resource.runInAsyncScope(read), read());
    });
  },

  "disable hides the store until the next run": async (Storage, trace) => {
    const request = new Storage<string>();
    await request.run("before", async () => {
      request.disable();
      trace.push(request.getStore());
      await tick();
      trace.push(request.getStore());
    });
    trace.push(request.run("again", () => request.getStore()));
  },
};

async function traceOf(Storage: Storage, scenario: (Storage: Storage, trace: Trace) => Promise<void>) {
  const trace: Trace = [];
  await scenario(Storage, trace);
  return trace;
}

/** Runs a fixture that changes the process's async_hooks in a process of its own: its JSON output, no stderr. */
function fixtureOutput(name: string): unknown {
  const child = spawnSync(process.execPath, [...TSX_FLAGS, `tests/unit/fixtures/${name}`], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    encoding: "utf8",
  });
  expect(child.stderr).toBe("");
  return JSON.parse(child.stdout);
}

describe("SharedAsyncLocalStorage", () => {
  const shared = SharedAsyncLocalStorage as unknown as Storage;

  for (const [name, scenario] of Object.entries(scenarios)) {
    it(`behaves as Node's: ${name}`, async () => {
      const expected = await traceOf(AsyncLocalStorage, scenario);
      // A scenario that saw no store would compare nothing.
      expect(JSON.stringify(expected)).toMatch(/"(req|req-1|a|entered|before|again|work)"|\[1,2,3\]/);
      expect(await traceOf(shared, scenario)).toEqual(expected);
    });
  }

  // What it is for: a promise made inside many storages' contexts carries one reference, not one
  // per storage (Node keeps each enabled storage's store on every promise, under its own symbol).
  it("puts one store on a promise whatever the number of storages", () => {
    const storesOn = (Storage: Storage) => {
      const storages = Array.from({ length: 6 }, () => new Storage<number>());
      const before = Object.getOwnPropertySymbols(Promise.resolve()).length;
      const nest = (i: number): Promise<void> =>
        i === storages.length ? Promise.resolve() : storages[i]!.run(i, () => nest(i + 1));
      return Object.getOwnPropertySymbols(nest(0)).length - before;
    };
    expect(storesOn(AsyncLocalStorage)).toBe(6);
    expect(storesOn(shared)).toBeLessThanOrEqual(1);
  });

  // Next.js takes globalThis.AsyncLocalStorage, React's renderers require node:async_hooks, the
  // server imports it: all three must be the shared class once the install has run (on Node 22 the
  // module's export is a getter, which an assignment would not replace).
  it("installs itself where Next.js, React and the server take AsyncLocalStorage from", () => {
    expect(fixtureOutput("install-shared-storage.ts")).toEqual({
      esm: true,
      cjs: true,
      global: true,
      seen: "store",
    });
  });

  // The server switches the stores off when no request holds them, so that API requests on the plain
  // path stop paying Node's promise hooks after a page; a held request keeps its store however long.
  it("switches the stores off once no request holds them, and on again for the next", () => {
    expect(fixtureOutput("stores-switch-off.ts")).toEqual({
      heldRequest: "held",
      hooksOnWhileHeld: true,
      hooksOffWhenIdle: true,
      storeOutside: "none",
      nextRequest: ["again", "again", "again", "again", true],
      workLeftRunning: "none",
    });
  });
});
