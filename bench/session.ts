/** Signs in to the dashboard the way a browser does (next-auth credentials) and returns the cookie header. */
export async function signIn(
  base: string,
  credentials: { email: string; password: string },
): Promise<string> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = csrf.headers.getSetCookie().map((c) => c.split(";")[0]!);
  const response = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.join("; ") },
    body: new URLSearchParams({
      csrfToken,
      email: credentials.email,
      password: credentials.password,
      json: "true",
    }),
  });
  const session = response.headers.getSetCookie().find((c) => c.includes("session-token"));
  if (!session) throw new Error(`dashboard sign-in failed: ${response.status}`);
  return [...jar, session.split(";")[0]!].join("; ");
}
