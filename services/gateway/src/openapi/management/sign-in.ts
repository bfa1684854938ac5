import { errors, type OpenApiPart, sessionOnly } from "./operations.ts";

const redirect = (description: string) => ({
  description,
  headers: { Location: { schema: { type: "string" }, description: "Where the browser goes next." } },
});

/** `/auth/*` (routes/auth-*.ts): browsers' sign-in with OpenID Connect, served where sign-in is configured. */
export const signInPart: OpenApiPart = {
  paths: {
    "/auth/login": {
      get: {
        summary: "Starts a sign-in at the OpenID Connect issuer (authorization code with PKCE).",
        parameters: [
          {
            name: "return_to",
            in: "query",
            required: false,
            description: "Where to land after signing in: a path on this site only (default /console).",
            schema: { type: "string", maxLength: 2_048, pattern: "^/(?![/\\\\])" },
          },
        ],
        responses: {
          "303": redirect("To the issuer."),
          "400": errors.badQuery["400"],
        },
      },
    },
    "/auth/callback": {
      get: {
        summary: "The issuer's answer: checked, a new session set, pending invitations taken up.",
        description: "Its query (`code`, `state`, ...) is the issuer's, checked against what the login kept.",
        responses: {
          "303": {
            ...redirect("To the login's `return_to`."),
            headers: {
              Location: { schema: { type: "string" }, description: "The login's `return_to`." },
              "Set-Cookie": { schema: { type: "string" }, description: "The session cookie (HttpOnly, SameSite=Lax)." },
            },
          },
          "401": errors.unauthorized["401"],
        },
      },
    },
    "/auth/logout": {
      post: {
        summary: "Ends the session on the server and clears its cookie; 204 also without one.",
        security: sessionOnly.change,
        responses: { "204": { description: "Signed out." }, ...errors.forbidden },
      },
    },
  },
};
