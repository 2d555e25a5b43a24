"""The web app: Starlette routes for starting games, the table, explain, replay and compare.

Every request is checked before it reaches the engine: it passes the guard (``guard``: the name it
was sent to, whose page sent it, how much it sends); a ruleset must be bundled or a rule file in an
allowed folder (``catalog``), options and presets must be the ruleset's own, seats must be players the
server offers, seeds and counts bounded, moves parsed by the engine (which refuses them in the rule's
own words). Nothing sent can name a file to read: a replayed log is uploaded, never named. Each link
is one capability (``tables``); unknown tokens are 404, never a hint.

Nothing slow runs on the event loop: a table is read and changed in worker threads under its own
lock (a bot thinks outside it, in ``tables.Bots``), and long work (a comparison, a long replay) is a
job (``jobs``) with a progress page, bounded in time and in number, cancelled when its page closes.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from markupsafe import Markup
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from rulecraft.errors import RulecraftError, UsageError, clip
from rulecraft.runs.session import MoveFailedError, StaleMoveError
from rulecraft.web.catalog import Catalog, parse_options
from rulecraft.web.guard import Guard
from rulecraft.web.jobs import Job, Jobs, compare_games
from rulecraft.web.render import table_html
from rulecraft.web.spectate import public_events, public_view
from rulecraft.web.tables import (
    DEFAULT_BOT,
    HOST,
    HOT,
    HUMAN,
    WATCH,
    Bots,
    Table,
    TableFullError,
    TableRules,
    Tables,
    check_seed,
    offered_agents,
)
from rulecraft.wording import Seats, language

HERE = Path(__file__).parent
MAX_UPLOAD_BYTES = 4 * 1024 * 1024 + 64 * 1024  # an uploaded log (4 MB) and its form
MAX_FORM_BYTES = 64 * 1024  # any other request's body
MAX_COMPARE_GAMES = 400
MAX_REPLAYS = 32
MAX_REPLAY_MOVES = 120_000  # moves of all the replays kept: a replay's states take memory as its moves do
COOKIE = "rulecraft_link"  # the browser a link is bound to (one per link: its path is the link's)
COOKIE_DAYS = 30
VERSION_HEADER = "X-Table-Version"  # the version a table fragment shows (a move answers it)


def make_app(rules_dirs: list[str | Path] | None = None, log_dir: Path | None = None,
             allowed_hosts: list[str] | None = None, bot_threads: int = 2, max_jobs: int = 2) -> Starlette:
    """The app; ``rules_dirs`` are the folders whose rule files a browser may choose (besides the bundled).

    ``allowed_hosts``: the names a request may be addressed to (the Host header); serving on this
    machine only, a page of another site that rebinds its name to 127.0.0.1 is refused.
    ``log_dir``: where each table's log and record are kept, and found again after a restart.
    """
    catalog = Catalog.of(list(rules_dirs or []))
    bots = Bots(bot_threads)
    tables = Tables(log_dir, bots, catalog.load)
    jobs = Jobs(max_jobs)
    replays: dict[str, Any] = {}
    replays_lock = threading.Lock()
    templates = Jinja2Templates(directory=str(HERE / "templates"))

    def page(request: Request, name: str, status: int = 200, **context: Any) -> Response:
        return templates.TemplateResponse(request, name, context, status_code=status)

    def problem(request: Request, exc: RulecraftError | str, status: int = 400) -> Response:
        return page(request, "error.html", status, message=str(exc))

    async def find(token: str) -> tuple[Table, int] | None:
        """``tables.find`` off the event loop (it may take a game up from its log); a server with no room to
        take it up says so (503)."""
        found = tables.in_memory(token)  # (a dictionary's look-up: no thread needed)
        if found is not None:
            return found
        try:
            return await run_in_threadpool(tables.find, token)
        except TableFullError as exc:
            raise HTTPException(503, str(exc)) from None

    async def opened(request: Request, accept: Callable[[int], bool]) -> tuple[Table, int]:
        """The table the request's token opens, and what the token stands for, if ``accept`` takes it (404
        otherwise); a seat's or the hot-seat link opens only in the browser it is bound to (403)."""
        token = request.path_params["token"]
        found = await find(token)
        if found is None or not accept(found[1]):
            raise HTTPException(404, "no such game or seat")
        table, role = found
        if (role >= 0 or role == HOT) and not table.holds(token, request.cookies.get(COOKIE)):
            raise HTTPException(403, "this link is open in another browser; if that was not you, ask the host of "
                                     "the table for a new link")
        return found

    async def link(request: Request, role: int) -> tuple[Table, int]:
        return await opened(request, lambda r: r == role)

    async def seat_link(request: Request) -> tuple[Table, int]:
        return await opened(request, lambda r: r >= 0)

    async def form_of(request: Request) -> FormData:
        return await request.form(max_files=1, max_fields=300, max_part_size=MAX_UPLOAD_BYTES)

    def version_of(form: FormData) -> int | None:
        try:
            return int(str(form.get("version")))
        except ValueError:
            return None

    # ------------------------------------------------------------------ starting a game
    async def index(request: Request) -> Response:
        local = await run_in_threadpool(catalog.local)
        return page(request, "index.html", bundled=catalog.bundled(), local=local, roots=catalog.describe_roots())

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
                "agents": offered_agents(rs), "languages": languages,
                "default_language": names.default if names else "", "seed": args.get("seed", "")}

    async def start_form(request: Request) -> Response:
        args = dict(request.query_params)
        try:
            setup = await run_in_threadpool(_setup, args)
        except RulecraftError as exc:
            return problem(request, exc)
        seats = [args.get(f"seat.{s}", HUMAN if s == 0 else DEFAULT_BOT) for s in range(setup["rs"].seats.count)]
        return page(request, "start.html", seats=seats, **setup)

    def _start(args: dict[str, str]) -> Table:
        setup = _setup(args)
        rs = setup["rs"]
        seats = [args.get(f"seat.{s}", "") for s in range(rs.seats.count)]
        seed = check_seed(args.get("seed"))
        lang = language(rs, args.get("lang") or None)
        rules = TableRules(undo=args.get("undo") == "1", hot_seat=args.get("screens") == "hot",
                           reveal_at_end=args.get("reveal") == "1")
        return tables.start(args["ref"], rs, seed, seats, lang, rules, setup["options"], setup["preset"] or None)

    async def start(request: Request) -> Response:
        args = {k: str(v) for k, v in (await form_of(request)).items()}
        try:
            table = await run_in_threadpool(_start, args)
        except TableFullError as exc:
            return problem(request, exc, 503)
        except RulecraftError as exc:
            return problem(request, exc)
        if len(table.seat_tokens) == 1:  # one person: they started it, their seat is this browser's
            token = next(iter(table.seat_tokens.values()))
            secret = table.claim(token)
            assert secret is not None
            await run_in_threadpool(table.write_record)
            response = RedirectResponse(f"/seat/{token}", 303)
            _bind(request, response, secret, f"/seat/{token}")
            return response
        return RedirectResponse(f"/host/{table.host_token}", 303)

    # ------------------------------------------------------------------ the host: the links, no hands
    async def host(request: Request) -> Response:
        table, _ = await link(request, HOST)
        state = await run_in_threadpool(_status, table, None)
        return page(request, "host.html", table=table, claimed=set(table.claims), state=state)

    async def host_new_link(request: Request) -> Response:
        table, _ = await link(request, HOST)
        form = await form_of(request)
        try:
            seat = int(str(form.get("seat")))
        except ValueError:
            seat = -1
        if seat not in table.seat_tokens:
            return problem(request, "no such seat")
        await run_in_threadpool(tables.new_link, table, seat)
        return RedirectResponse(f"/host/{table.host_token}", 303)

    async def host_close(request: Request) -> Response:
        table, _ = await link(request, HOST)
        await run_in_threadpool(tables.close, table)
        return RedirectResponse("/", 303)

    # ------------------------------------------------------------------ the table
    def seating(table: Table, viewer: int | None) -> Seats:
        labels = []
        for s, a in enumerate(table.session.agents):
            labels.append(("you" if s == viewer else HUMAN) if a == HUMAN else a)
        return Seats(tuple(labels))

    def fragment(table: Table, seat: int | None, role: int) -> tuple[Markup, int]:
        """The table as ``seat`` sees it (None: a spectator, or the hot-seat screen under its cover), and the
        version it shows; read under the table's lock, drawn outside it."""
        from rulecraft.engine.views import redact_event

        with table.lock:
            st = table.session.st
            version = table.version
            if seat is not None:
                view = st.view(seat)
                events = [e for e in (redact_event(x, seat) for x in st.history) if e is not None]
            elif st.is_over and table.rules.reveal_at_end:
                view, events = st.view(None), list(st.history)
                view["seat"] = None
            else:
                view, events = public_view(st), public_events(st)
            undo = table.can_undo and seat is not None and seat == role
        body = table_html(table.rs, view, events, seating(table, seat if role >= 0 else None), table.lang,
                          can_undo=undo, interactive=seat is not None)
        return body, version

    def _status(table: Table, seat: int | None) -> dict[str, Any]:
        """Read without the table's lock (on the event loop, which must never wait for it): a move replaces the
        state whole, so its fields agree with each other; the version is a hint to fetch the table again
        (whose fragment names the version it shows, and a move answers that one)."""
        st = table.session.st
        return {"version": table.version, "to_act": st.to_act, "over": st.is_over, "thinking": table.thinking,
                "problem": table.problem}

    async def table_page(request: Request, table: Table, seat: int | None, role: int, base: str) -> Response:
        body, version = await run_in_threadpool(fragment, table, seat, role)
        return page(request, "table.html", table=table, seat=seat, role={HOT: "hot", WATCH: "watch"}.get(role, "seat"),
                    base=base, body=body, version=version)

    def fragment_response(body: Markup, version: int) -> Response:
        return HTMLResponse(body, headers={VERSION_HEADER: str(version)})

    async def unbound(request: Request, accept: Callable[[int], bool]) -> tuple[Table, int, str] | None:
        """A link not yet bound to a browser: (table, role, token); None when it is bound to this one
        (a bound link opened elsewhere is 403)."""
        token = request.path_params["token"]
        found = await find(token)
        if found is None or not accept(found[1]):
            raise HTTPException(404, "no such game or seat")
        table, role = found
        if token not in table.claims:
            return table, role, token
        if not table.holds(token, request.cookies.get(COOKIE)):
            raise HTTPException(403, "this link is open in another browser; if that was not you, ask the host of "
                                     "the table for a new link")
        return None

    async def take(request: Request, accept: Callable[[int], bool], kind: str) -> Response:
        """POST: bind the link to this browser (the first to ask has it), then show its table."""
        token = request.path_params["token"]
        free = await unbound(request, accept)
        if free is not None:
            table = free[0]
            secret = table.claim(token)
            if secret is None:  # another browser came first
                raise HTTPException(403, "this link is open in another browser; if that was not you, ask the host "
                                         "of the table for a new link")
            await run_in_threadpool(table.write_record)
            response = RedirectResponse(f"/{kind}/{token}", 303)
            _bind(request, response, secret, f"/{kind}/{token}")
            return response
        return RedirectResponse(f"/{kind}/{token}", 303)

    async def seat_page(request: Request) -> Response:
        free = await unbound(request, lambda r: r >= 0)
        if free is not None:  # (a GET changes nothing: the player takes the seat with a POST)
            return page(request, "take.html", table=free[0], seat=free[1], action=f"/seat/{free[2]}/take")
        table, seat = await seat_link(request)
        return await table_page(request, table, seat, seat, f"/seat/{request.path_params['token']}")

    async def seat_take(request: Request) -> Response:
        return await take(request, lambda r: r >= 0, "seat")

    async def seat_table(request: Request) -> Response:
        table, seat = await seat_link(request)
        return fragment_response(*await run_in_threadpool(fragment, table, seat, seat))

    async def seat_version(request: Request) -> Response:
        table, _ = await seat_link(request)
        return JSONResponse(_status(table, None))

    async def move(table: Table, seat: int, form: FormData) -> Response:
        text = form.get("move")
        try:
            await run_in_threadpool(table.play, seat, str(text) if text is not None else "", version_of(form))
        except StaleMoveError as exc:
            return JSONResponse({"ok": False, "error": str(exc), "version": table.version}, 409)
        except MoveFailedError as exc:
            return JSONResponse({"ok": False, "error": str(exc), "version": table.version}, 422)
        except RulecraftError as exc:
            return JSONResponse({"ok": False, "error": str(exc), "version": table.version}, 400)
        await run_in_threadpool(bots.answer, table)
        return JSONResponse({"ok": True, "version": table.version})

    async def seat_move(request: Request) -> Response:
        table, seat = await seat_link(request)
        return await move(table, seat, await form_of(request))

    async def seat_undo(request: Request) -> Response:
        table, seat = await seat_link(request)
        try:
            n = await run_in_threadpool(table.undo, seat)
        except RulecraftError as exc:
            return JSONResponse({"ok": False, "error": str(exc), "version": table.version}, 400)
        bots.wake(table)
        return JSONResponse({"ok": True, "undone": n, "version": table.version})

    # Hot-seat: one screen for every person; the server shows a seat's hand only after its player lifted the cover.
    async def hot_page(request: Request) -> Response:
        free = await unbound(request, lambda r: r == HOT)
        if free is not None:
            return page(request, "take.html", table=free[0], seat=None, action=f"/hot/{free[2]}/take")
        table, _ = await link(request, HOT)
        return page(request, "table.html", table=table, seat=None, role="hot",
                    base=f"/hot/{request.path_params['token']}", body=Markup(""), version=table.version)

    async def hot_take(request: Request) -> Response:
        return await take(request, lambda r: r == HOT, "hot")

    def _hot_state(table: Table) -> dict[str, Any]:
        with table.lock:
            st = table.session.st
            acting = st.to_act if st.to_act in table.humans and not st.is_over else None
            return {"version": table.version, "seat": acting, "shown": table.hot_seat_to_show(), "over": st.is_over,
                    "humans": table.humans, "thinking": table.thinking, "problem": table.problem}

    async def hot_state(request: Request) -> Response:
        table, _ = await link(request, HOT)
        return JSONResponse(await run_in_threadpool(_hot_state, table))  # (under the lock: the cover is decided)

    async def hot_reveal(request: Request) -> Response:
        table, _ = await link(request, HOT)
        form = await form_of(request)
        try:
            seat = await run_in_threadpool(table.lift_cover, version_of(form))
        except RulecraftError as exc:
            return JSONResponse({"ok": False, "error": str(exc), "version": table.version}, 409)
        return JSONResponse({"ok": True, "seat": seat, "version": table.version})

    def _hot_fragment(table: Table) -> tuple[Markup, int] | None:
        with table.lock:
            seat = table.hot_seat_to_show()
            if seat is None and not table.session.st.is_over:
                return None
            return fragment(table, seat, HOT)

    async def hot_table(request: Request) -> Response:
        table, _ = await link(request, HOT)
        drawn = await run_in_threadpool(_hot_fragment, table)
        if drawn is None:
            return JSONResponse({"ok": False, "error": "the table is covered: the player to act lifts the cover"}, 409)
        return fragment_response(*drawn)

    async def hot_move(request: Request) -> Response:
        table, _ = await link(request, HOT)
        form = await form_of(request)
        seat = table.hot_seat_to_show()
        if seat is None:
            return JSONResponse({"ok": False, "error": "the table is covered: lift the cover first",
                                 "version": table.version}, 409)
        return await move(table, seat, form)

    # Spectators: what every seat sees (everything once the game is over, if the table chose so).
    async def watch_page(request: Request) -> Response:
        table, _ = await link(request, WATCH)
        return await table_page(request, table, None, WATCH, f"/watch/{request.path_params['token']}")

    async def watch_table(request: Request) -> Response:
        table, _ = await link(request, WATCH)
        return fragment_response(*await run_in_threadpool(fragment, table, None, WATCH))

    async def watch_version(request: Request) -> Response:
        table, _ = await link(request, WATCH)
        return JSONResponse(_status(table, None))

    async def watch_log(request: Request) -> Response:
        table, _ = await link(request, WATCH)
        with table.lock:
            shown = table.session.st.is_over and table.rules.reveal_at_end
            lines = table.session.log() if shown else []
        if not shown:
            raise HTTPException(404, "the whole log is shown once the game is over, if the table chose so")
        return PlainTextResponse("\n".join(lines) + "\n", media_type="application/x-ndjson",
                                 headers={"content-disposition": f'attachment; filename="rulecraft-{table.key}.jsonl"'})

    # ------------------------------------------------------------------ explain, replay, compare
    async def ruleset_page(request: Request, action: str, what: str, make: Any, template: str) -> Response:
        """A page about one ruleset (``ref``): the form to pick one first when none is named."""
        args = dict(request.query_params)
        if not args.get("ref"):
            local = await run_in_threadpool(catalog.local)
            return page(request, "pick.html", action=action, what=what, bundled=catalog.bundled(), local=local)
        try:
            context = await run_in_threadpool(make, catalog, args)
        except RulecraftError as exc:
            return problem(request, exc)
        return page(request, template, **context)

    async def explain(request: Request) -> Response:
        from rulecraft.web.pages import explain_context

        return await ruleset_page(request, "/explain", "explain", explain_context, "explain.html")

    async def howto(request: Request) -> Response:
        from rulecraft.web.pages import howto_context

        return await ruleset_page(request, "/howto", "read how to play", howto_context, "howto.html")

    async def replay_form(request: Request) -> Response:
        local = await run_in_threadpool(catalog.local)
        return page(request, "replay_form.html", bundled=catalog.bundled(), local=local)

    async def replay_upload(request: Request) -> Response:
        from rulecraft.web.pages import load_replay, moves_in

        form = await form_of(request)
        upload = form.get("log")
        text = await upload.read() if isinstance(upload, UploadFile) else str(upload or "").encode()
        ref = str(form.get("ref") or "")
        seat = clip(str(form.get("seat") or "0"), 20)

        def work(job: Job) -> str:
            token, replay = load_replay(catalog, text, ref, progress=job.check)
            with replays_lock:  # (two replay jobs may end at once)
                replays[token] = replay
                # The oldest go first, until both the number kept and their moves are within bounds (a 4 MB
                # log holds about 60,000 moves, and its replay about 100 MB).
                while len(replays) > 1 and (len(replays) > MAX_REPLAYS or sum(
                        len(r.before) for r in replays.values()) > MAX_REPLAY_MOVES):
                    del replays[next(iter(replays))]
            return f"/replay/{token}?seat={seat}&step=0"

        return submit(request, "replay", moves_in(text), work)

    async def replay_step(request: Request) -> Response:
        from rulecraft.web.pages import replay_context

        replay = replays.get(request.path_params["token"])
        if replay is None:
            raise HTTPException(404, "no such replay")
        try:
            context = await run_in_threadpool(replay_context, replay, request.query_params.get("seat", "0"),
                                              request.query_params.get("step", "0"))
        except RulecraftError as exc:
            return problem(request, exc)
        return page(request, "replay.html", token=request.path_params["token"], **context)

    async def compare_form(request: Request) -> Response:
        local = await run_in_threadpool(catalog.local)
        return page(request, "compare_form.html", bundled=catalog.bundled(), local=local,
                    agents=[a for a in offered_agents() if a != HUMAN], limit=MAX_COMPARE_GAMES,
                    args=dict(request.query_params))

    async def compare(request: Request) -> Response:
        from rulecraft.web.pages import compare_context, compare_request

        args = {k: str(v) for k, v in (await form_of(request)).items()}
        try:
            asked = await run_in_threadpool(compare_request, catalog, args, MAX_COMPARE_GAMES)
        except RulecraftError as exc:
            return problem(request, exc)

        def work(job: Job) -> dict[str, Any]:
            records = compare_games(job, asked.files, asked.games, asked.seed, asked.agent)
            return compare_context(catalog, asked, records, job.stopped)

        return submit(request, "compare", asked.games, work)

    def submit(request: Request, kind: str, total: int, work: Callable[[Job], Any]) -> Response:
        """Long work as a job, and its progress page (503 when the server runs its most of the kind)."""
        try:
            job = jobs.submit(kind, total, work)
        except UsageError as exc:
            return problem(request, exc, 503)
        return RedirectResponse(f"/jobs/{job.token}", 303)

    async def job_page(request: Request) -> Response:
        job = jobs.get(request.path_params["token"])
        if job is None:
            raise HTTPException(404, "no such work")
        if job.finished and job.error is not None:
            return problem(request, job.error)
        if job.finished and job.result is None:
            return problem(request, f"stopped: {job.stopped}")
        if job.finished and job.kind == "replay":
            return RedirectResponse(job.result, 303)
        if job.finished:
            return page(request, "compare.html", **job.result)
        return page(request, "job.html", job=job)

    async def job_status(request: Request) -> Response:
        job = jobs.get(request.path_params["token"])
        if job is None:
            raise HTTPException(404, "no such work")
        return JSONResponse(job.as_json())

    async def not_found(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        detail = exc.detail if isinstance(exc, HTTPException) else "the server failed"
        return page(request, "error.html", status, message=detail)

    routes = [
        Route("/", index),
        Route("/start", start_form, methods=["GET"]),
        Route("/start", start, methods=["POST"]),
        Route("/host/{token}", host),
        Route("/host/{token}/link", host_new_link, methods=["POST"]),
        Route("/host/{token}/close", host_close, methods=["POST"]),
        Route("/seat/{token}", seat_page),
        Route("/seat/{token}/take", seat_take, methods=["POST"]),
        Route("/seat/{token}/table", seat_table),
        Route("/seat/{token}/version", seat_version),
        Route("/seat/{token}/move", seat_move, methods=["POST"]),
        Route("/seat/{token}/undo", seat_undo, methods=["POST"]),
        Route("/hot/{token}", hot_page),
        Route("/hot/{token}/take", hot_take, methods=["POST"]),
        Route("/hot/{token}/state", hot_state),
        Route("/hot/{token}/reveal", hot_reveal, methods=["POST"]),
        Route("/hot/{token}/table", hot_table),
        Route("/hot/{token}/move", hot_move, methods=["POST"]),
        Route("/watch/{token}", watch_page),
        Route("/watch/{token}/table", watch_table),
        Route("/watch/{token}/version", watch_version),
        Route("/watch/{token}/log", watch_log),
        Route("/explain", explain),
        Route("/howto", howto),
        Route("/replay", replay_form, methods=["GET"]),
        Route("/replay", replay_upload, methods=["POST"]),
        Route("/replay/{token}", replay_step),
        Route("/compare", compare_form, methods=["GET"]),
        Route("/compare", compare, methods=["POST"]),
        Route("/jobs/{token}", job_page),
        Route("/jobs/{token}/status", job_status),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]

    def body_limit(method: str, path: str) -> int:
        return MAX_UPLOAD_BYTES if (method, path) == ("POST", "/replay") else MAX_FORM_BYTES

    middleware = [Middleware(Guard, allowed_hosts=allowed_hosts, body_limit=body_limit)]
    app = Starlette(routes=routes, middleware=middleware, exception_handlers={HTTPException: not_found})
    app.state.tables = tables  # for tests: the games in progress
    app.state.catalog = catalog
    app.state.bots = bots
    app.state.jobs = jobs
    return app


def _bind(request: Request, response: Response, secret: str, path: str) -> None:
    """The cookie that binds a link to this browser: sent back only to the link's own addresses, and, at a table
    served over HTTPS (behind a proxy), never in the clear."""
    response.set_cookie(COOKIE, secret, max_age=COOKIE_DAYS * 86400, path=path, httponly=True, samesite="lax",
                        secure=request.url.scheme == "https")


def as_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)

