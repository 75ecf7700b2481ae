import { shareAsyncLocalStorage } from "./shared-async-local-storage";

// server.ts's first import, so that it runs before Next.js and React create their storages.
shareAsyncLocalStorage();
