"""The web app: Starlette routes for starting games, the table, explain, replay and compare.

Every request is checked before it reaches the engine: a ruleset must be bundled or in an allowed
folder (``catalog``), options and presets must be the ruleset's own, seats must be players the
server offers, seeds and counts bounded, moves parsed by the engine (which refuses them in the
rule's own words). Nothing sent can name a file to read: a replayed log is uploaded, never named.
A seat's token is the only key to its view; unknown tokens are 404, never a hint.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from markupsafe import Markup
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from rulecraft.errors import RulecraftError, UsageError, clip
from rulecraft.web.catalog import Catalog, parse_options
from rulecraft.web.render import table_html
from rulecraft.web.tables import HOT, HUMAN, Table, Tables, check_seed, offered_agents
from rulecraft.wording import Seats, language

HERE = Path(__file__).parent
MAX_FORM_BYTES = 4 * 1024 * 1024  # an uploaded log, at most
MAX_COMPARE_GAMES = 400
MAX_REPLAYS = 32


def make_app(rules_dirs: list[str | Path] | None = None, log_dir: Path | None = None,
             allowed_hosts: list[str] | None = None) -> Starlette:
    """The app; ``rules_dirs`` are the folders whose rule files a browser may choose (besides the bundled).

    ``allowed_hosts``: the names a request may be addressed to (the Host header); serving on this
    machine only, a page of another site that rebinds its name to 127.0.0.1 is refused.
    """
    catalog = Catalog.of(list(rules_dirs or []))
    tables = Tables(log_dir)
    replays: dict[str, Any] = {}
    templates = Jinja2Templates(directory=str(HERE / "templates"))

    def page(request: Request, name: str, status: int = 200, **context: Any) -> Response:
        return templates.TemplateResponse(request, name, context, status_code=status)

    def problem(request: Request, exc: RulecraftError | str, status: int = 400) -> Response:
        return page(request, "error.html", status, message=str(exc))

    def seat_of(token: str, hot: bool) -> tuple[Table, int]:
        found = tables.find(token)
        if found is None or (found[1] == HOT) != hot:
            raise HTTPException(404, "no such game or seat")
        return found

    async def form_of(request: Request) -> FormData:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_FORM_BYTES):
            raise HTTPException(413, "too large")
        return await request.form(max_files=1, max_fields=300, max_part_size=MAX_FORM_BYTES)

    # ------------------------------------------------------------------ starting a game
    async def index(request: Request) -> Response:
        return page(request, "index.html", bundled=catalog.bundled(), local=catalog.local(),
                    roots=catalog.describe_roots())

    def _setup(args: dict[str, str]) -> dict[str, Any]:
        """The start form for a ruleset, for the options chosen so far (the seat count may depend on them)."""
        ref = args.get("ref", "")
        info = catalog.describe(ref)
        preset = args.get("preset") or None
        if preset is not None and preset not in {p["id"] for p in info["presets"]}:
            raise UsageError(f"{info['name']} has no preset '{clip(preset)}'")
        options = parse_options(args, info["options"])
        rs = catalog.load(ref, options, preset)
        chosen = dict(rs.chosen)
        names = rs.display.names if rs.display else None
        languages = dict(names.languages) if names else {}
        return {"info": info, "rs": rs, "chosen": chosen, "preset": preset or "", "options": options,
                "agents": offered_agents(), "languages": languages,
                "default_language": names.default if names else "", "seed": args.get("seed", "1")}

    async def start_form(request: Request) -> Response:
        args = dict(request.query_params)
        try:
            setup = await run_in_threadpool(_setup, args)
        except RulecraftError as exc:
            return problem(request, exc)
        seats = [args.get(f"seat.{s}", HUMAN if s == 0 else "random") for s in range(setup["rs"].seats.count)]
        return page(request, "start.html", seats=seats, **setup)

    async def start(request: Request) -> Response:
        args = {k: str(v) for k, v in (await form_of(request)).items()}
        try:
            setup = await run_in_threadpool(_setup, args)
            rs = setup["rs"]
            seats = [args.get(f"seat.{s}", "") for s in range(rs.seats.count)]
            seed = check_seed(args.get("seed", "1"))
            lang = language(rs, args.get("lang") or None)
            table = await run_in_threadpool(tables.start, args["ref"], rs, seed, seats, lang)
        except RulecraftError as exc:
            return problem(request, exc)
        if len(table.tokens) == 1:
            return RedirectResponse(f"/seat/{next(iter(table.tokens.values()))}", 303)
        return RedirectResponse(f"/host/{table.hot_token}", 303)

    async def host(request: Request) -> Response:
        table, _ = seat_of(request.path_params["token"], hot=True)
        return page(request, "host.html", table=table)

    # ------------------------------------------------------------------ the table
    def seating(table: Table, viewer: int | None, hot: bool) -> Seats:
        labels = []
        for s, a in enumerate(table.agents):
            labels.append(("you" if s == viewer and not hot else HUMAN) if a == HUMAN else a)
        return Seats(tuple(labels))

    def fragment(table: Table, seat: int, hot: bool) -> Markup:
        view = table.view(seat)
        events = table.seen_events(seat)
        return table_html(table.rs, view, events, seating(table, seat, hot), table.lang,
                          can_undo=table.humans == [seat])

    async def seat_page(request: Request) -> Response:
        table, seat = seat_of(request.path_params["token"], hot=False)
        return page(request, "table.html", table=table, seat=seat, hot=False,
                    base=f"/seat/{request.path_params['token']}", body=fragment(table, seat, False))

    async def seat_table(request: Request) -> Response:
        table, seat = seat_of(request.path_params["token"], hot=False)
        return HTMLResponse(fragment(table, seat, False))

    async def seat_version(request: Request) -> Response:
        table, _ = seat_of(request.path_params["token"], hot=False)
        return JSONResponse({"version": table.version, "to_act": table.st.to_act, "over": table.st.is_over})

    async def move(table: Table, seat: int, text: Any) -> Response:
        try:
            await run_in_threadpool(table.play, seat, str(text) if text is not None else "")
        except RulecraftError as exc:
            return JSONResponse({"ok": False, "error": str(exc), "version": table.version}, 400)
        return JSONResponse({"ok": True, "version": table.version})

    async def seat_move(request: Request) -> Response:
        table, seat = seat_of(request.path_params["token"], hot=False)
        return await move(table, seat, (await form_of(request)).get("move"))

    async def seat_undo(request: Request) -> Response:
        table, seat = seat_of(request.path_params["token"], hot=False)
        try:
            n = await run_in_threadpool(table.undo, seat)
        except RulecraftError as exc:
            return JSONResponse({"ok": False, "error": str(exc), "version": table.version}, 400)
        return JSONResponse({"ok": True, "undone": n, "version": table.version})

    # Hot-seat: one screen for every human seat; the page asks for the seat to act, covered between turns.
    def hot_seat(table: Table, text: Any) -> int:
        try:
            seat = int(str(text))
        except ValueError:
            raise HTTPException(400, "no such seat") from None
        if seat not in table.tokens:
            raise HTTPException(400, "no such seat")
        return seat

    async def hot_page(request: Request) -> Response:
        table, _ = seat_of(request.path_params["token"], hot=True)
        return page(request, "table.html", table=table, seat=None, hot=True,
                    base=f"/hot/{request.path_params['token']}", body=Markup(""))

    async def hot_state(request: Request) -> Response:
        table, _ = seat_of(request.path_params["token"], hot=True)
        st = table.st
        acting = st.to_act if st.to_act in table.tokens else None
        return JSONResponse({"version": table.version, "seat": acting, "over": st.is_over,
                             "humans": sorted(table.tokens)})

    async def hot_table(request: Request) -> Response:
        table, _ = seat_of(request.path_params["token"], hot=True)
        seat = hot_seat(table, request.query_params.get("seat"))
        return HTMLResponse(fragment(table, seat, True))

    async def hot_move(request: Request) -> Response:
        table, _ = seat_of(request.path_params["token"], hot=True)
        form = await form_of(request)
        return await move(table, hot_seat(table, form.get("seat")), form.get("move"))

    # ------------------------------------------------------------------ explain, replay, compare
    async def explain(request: Request) -> Response:
        from rulecraft.web.pages import explain_context

        args = dict(request.query_params)
        if not args.get("ref"):
            return page(request, "pick.html", action="/explain", what="explain", bundled=catalog.bundled(),
                        local=catalog.local())
        try:
            context = await run_in_threadpool(explain_context, catalog, args)
        except RulecraftError as exc:
            return problem(request, exc)
        return page(request, "explain.html", **context)

    async def replay_form(request: Request) -> Response:
        return page(request, "replay_form.html", bundled=catalog.bundled(), local=catalog.local())

    async def replay_upload(request: Request) -> Response:
        from rulecraft.web.pages import load_replay

        form = await form_of(request)
        upload = form.get("log")
        text = await upload.read() if isinstance(upload, UploadFile) else str(upload or "").encode()
        try:
            token, replay = await run_in_threadpool(load_replay, catalog, text, str(form.get("ref") or ""))
        except RulecraftError as exc:
            return problem(request, exc)
        replays[token] = replay
        while len(replays) > MAX_REPLAYS:
            del replays[next(iter(replays))]
        return RedirectResponse(f"/replay/{token}?seat={form.get('seat') or 0}&step=0", 303)

    async def replay_step(request: Request) -> Response:
        from rulecraft.web.pages import replay_context

        replay = replays.get(request.path_params["token"])
        if replay is None:
            raise HTTPException(404, "no such replay")
        try:
            context = replay_context(replay, request.query_params.get("seat", "0"),
                                     request.query_params.get("step", "0"))
        except RulecraftError as exc:
            return problem(request, exc)
        return page(request, "replay.html", token=request.path_params["token"], **context)

    async def compare(request: Request) -> Response:
        from rulecraft.web.pages import compare_context

        args = dict(request.query_params)
        if not args.get("a"):
            return page(request, "compare_form.html", bundled=catalog.bundled(), local=catalog.local(),
                        agents=[a for a in offered_agents() if a != HUMAN], limit=MAX_COMPARE_GAMES)
        try:
            context = await run_in_threadpool(compare_context, catalog, args, MAX_COMPARE_GAMES)
        except RulecraftError as exc:
            return problem(request, exc)
        return page(request, "compare.html", **context)

    async def not_found(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        detail = exc.detail if isinstance(exc, HTTPException) else "the server failed"
        return page(request, "error.html", status, message=detail)

    routes = [
        Route("/", index),
        Route("/start", start_form, methods=["GET"]),
        Route("/start", start, methods=["POST"]),
        Route("/host/{token}", host),
        Route("/seat/{token}", seat_page),
        Route("/seat/{token}/table", seat_table),
        Route("/seat/{token}/version", seat_version),
        Route("/seat/{token}/move", seat_move, methods=["POST"]),
        Route("/seat/{token}/undo", seat_undo, methods=["POST"]),
        Route("/hot/{token}", hot_page),
        Route("/hot/{token}/state", hot_state),
        Route("/hot/{token}/table", hot_table),
        Route("/hot/{token}/move", hot_move, methods=["POST"]),
        Route("/explain", explain),
        Route("/replay", replay_form, methods=["GET"]),
        Route("/replay", replay_upload, methods=["POST"]),
        Route("/replay/{token}", replay_step),
        Route("/compare", compare),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts)] if allowed_hosts else []
    app = Starlette(routes=routes, middleware=middleware, exception_handlers={HTTPException: not_found})
    app.state.tables = tables  # for tests: the games in progress
    app.state.catalog = catalog
    return app


def as_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
