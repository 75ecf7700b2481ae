import { notFound } from "@/lib/errors";

/** The member id of a route's path, or the same 404 as a member of another team. */
export function memberId(params: Record<string, string>): number {
  const id = Number(params.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw notFound("No such member of your team.");
  return id;
}
