/** The development provider's sign-in page: plain HTML, no script, every value escaped. */
const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char] as string,
  );

/**
 * A form whose inputs are labelled `Email` and `Password` and whose button is `Sign in`: browser tests
 * find them by those names. `action` is the interaction's own path; `error` a line shown above the form.
 */
export function loginPage(action: string, email: string, error?: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Sign in (development)</title></head>
<body>
<main>
<h1>Sign in to the local stack</h1>
<p>This is the development OpenID provider of <code>npm start</code>; it knows only the accounts it printed.</p>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="${escapeHtml(action)}">
<p><label for="email">Email</label> <input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}"></p>
<p><label for="password">Password</label> <input id="password" name="password" type="password" autocomplete="current-password" required></p>
<p><button type="submit">Sign in</button></p>
</form>
</main>
</body>
</html>`;
}
