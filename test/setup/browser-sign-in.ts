/**
 * A browser's cookies, per origin, over fetch with `redirect: "manual"`: each Set-Cookie kept (or dropped
 * when it expires), each request sent with its origin's cookies.
 */
export class CookieJar {
  private readonly jars = new Map<string, Map<string, string>>();

  cookies(origin: string): Map<string, string> {
    const jar = this.jars.get(origin) ?? new Map<string, string>();
    this.jars.set(origin, jar);
    return jar;
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const { origin } = new URL(url);
    const jar = this.cookies(origin);
    const headers = new Headers(init.headers);
    if (jar.size > 0) headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
    const response = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const expired = attributes.some((attribute) => {
        const [key = "", value = ""] = attribute.trim().split("=");
        return (
          (key.toLowerCase() === "max-age" && Number(value) <= 0) ||
          (key.toLowerCase() === "expires" && Date.parse(value) <= Date.now())
        );
      });
      if (expired) jar.delete(name);
      else jar.set(name, pair.slice(at + 1).trim());
    }
    return response;
  }
}

/**
 * Signs in at the gateway `baseUrl` as a browser would: its login route, the issuer's form (any page of
 * another origin that answers 200), the callback; answers the first answer back on the site outside /auth/.
 */
export async function signInThrough(
  jar: CookieJar,
  baseUrl: string,
  email: string,
  password: string,
  returnTo?: string,
): Promise<{ response: Response; url: string }> {
  const login = `${baseUrl}/auth/login${returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : ""}`;
  let response = await jar.fetch(login);
  let url = login;
  for (let hops = 0; hops < 10; hops++) {
    if (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get("location") as string, url).href;
      if (url.startsWith(baseUrl) && !new URL(url).pathname.startsWith("/auth/")) return { response, url };
      response = await jar.fetch(url);
      continue;
    }
    if (response.status === 200 && !url.startsWith(baseUrl)) {
      const html = await response.text();
      const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1] as string;
      url = new URL(action, url).href;
      response = await jar.fetch(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email, password }).toString(),
      });
      continue;
    }
    return { response, url };
  }
  throw new Error("sign-in did not finish within 10 hops");
}
