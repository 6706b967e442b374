"""The security headers on every HTTP response of the server, Streamlit's pages and files and the live routes alike
(serve.py adds this middleware to its st.App).

- X-Frame-Options SAMEORIGIN and CSP frame-ancestors 'self': no other site can frame the app and lure a click onto
  it. Not DENY: Streamlit Community Cloud shows the app in a frame of its own origin; the app itself frames nothing
  (its chart element is a components v2 element, drawn in the page).
- X-Content-Type-Options nosniff: a response is only what its content type says (Streamlit serves scripts, styles
  and the app's static files with their own types).
- Referrer-Policy same-origin: a link of a view carries every setting and the student's points; leaving the app, it
  goes to no other site.
"""

HEADERS = ((b"x-frame-options", b"SAMEORIGIN"), (b"content-security-policy", b"frame-ancestors 'self'"),
           (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"same-origin"))


class SecurityHeaders:
    """ASGI middleware: HEADERS added to each HTTP response that does not set them itself."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                message = {**message, "headers": headers + [h for h in HEADERS if h[0] not in present]}
            await send(message)

        await self.app(scope, receive, with_headers)
