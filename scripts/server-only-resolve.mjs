/** The resolve hook of scripts/server-only-hook.mjs: `server-only` resolves to its empty module. */
export async function resolve(specifier, context, nextResolve) {
  if (specifier !== "server-only") return nextResolve(specifier, context);
  return nextResolve(specifier, { ...context, conditions: [...context.conditions, "react-server"] });
}
