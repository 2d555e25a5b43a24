"""The browser table: ``rulecraft serve``, a local web app to play any ruleset with friends or bots.

Everything a browser is sent is derived from one seat's view (``State.view(seat)``) and the
redacted log (``views.redact_event``); the full state never leaves the server. Starlette, uvicorn
and Jinja2 are an optional extra (``pip install 'rulecraft[web]'``) imported only when serving.
"""
