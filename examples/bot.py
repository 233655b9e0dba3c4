#!/usr/bin/env python3
"""A bot account for Mizerka in Python with only the standard library: REST + server-sent events.

It follows its feed (GET /api/v1/me/events, no polling) and plays each turn from its seat's view,
with an expected version and an idempotency key. Against `npm start`:

    python3 examples/bot.py        # registers a bot account, plays a `short` game against two server bots

BASE_URL (default http://localhost:3000), BOT_TOKEN (else it registers one, printing the token),
LEVEL (the server bots' level, default basic), GAME_ID (play until that game is over), WAIT=1
(wait for the games others seat it in). Put your own player in choose().
"""
import json
import os
import random
import time
import urllib.error
import urllib.request
import uuid

BASE = os.environ.get("BASE_URL", "http://localhost:3000").rstrip("/") + "/api/v1"
token = os.environ.get("BOT_TOKEN")


class ApiError(Exception):
    def __init__(self, status, problem):
        super().__init__(f"{status} {problem.get('code')}: {problem.get('detail') or problem.get('title')}")
        self.status, self.code, self.problem = status, problem.get("code"), problem


def call(method, path, body=None, headers=None):
    """One REST call; waits out a 429 (Retry-After) and raises ApiError with the server's code."""
    while True:
        request = urllib.request.Request(BASE + path, method=method, data=None if body is None else json.dumps(body).encode())
        request.add_header("content-type", "application/json")
        if token:
            request.add_header("authorization", f"Bearer {token}")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                text = response.read().decode()
                return json.loads(text) if text else None
        except urllib.error.HTTPError as error:
            problem = json.loads(error.read().decode() or "{}")
            if error.code == 429:
                time.sleep(float(error.headers.get("retry-after") or problem.get("retryAfter") or 1))
                continue
            raise ApiError(error.code, problem) from None


def choose(legal):
    """Your player: a legal move from the seat's legal moves. This one picks at random."""
    kind = legal["kind"]
    if kind == "contract":
        return {"kind": kind, "contract": random.choice(legal["contracts"])}
    if kind == "bid":
        return {"kind": kind, "bid": random.choice(legal["bids"])}
    if kind == "trump":
        return {"kind": kind, "suit": random.choice(legal["suits"])}
    if kind == "play":
        return {"kind": kind, "card": random.choice(legal["cards"])}
    if kind == "exchange":
        return {"kind": kind, "discards": []}
    return {"kind": kind, "cards": legal["cards"][: legal["count"]]}


def play(game_id, attempts=5):
    """Plays this seat's turn; on CONFLICT / NOT_YOUR_TURN (the game moved meanwhile) reads it again."""
    for attempt in range(attempts):
        game = call("GET", f"/games/{game_id}")
        legal = game["view"].get("legalMoves")
        if game["status"] != "active" or not legal or legal["seat"] != game["mySeat"]:
            return
        move = dict(choose(legal), expectedVersion=game["version"])
        try:
            return call("POST", f"/games/{game_id}/moves", move, {"idempotency-key": uuid.uuid4().hex})
        except ApiError as error:
            if error.code not in ("CONFLICT", "NOT_YOUR_TURN") or attempt == attempts - 1:
                raise


def feed(last_id=None):
    """The player's feed as (id, type, event), reconnecting after a drop with Last-Event-ID."""
    failures = 0
    while True:
        request = urllib.request.Request(BASE + "/me/events", headers={"authorization": f"Bearer {token}", "accept": "text/event-stream"})
        if last_id:
            request.add_header("last-event-id", last_id)
        try:
            with urllib.request.urlopen(request, timeout=120) as stream:
                event_id, kind, data = None, "message", []
                for raw in stream:
                    line = raw.decode().rstrip("\r\n")
                    if line == "":
                        if data:
                            last_id = event_id or last_id
                            failures = 0
                            yield event_id, kind, json.loads("\n".join(data))
                        event_id, kind, data = None, "message", []
                    elif line.startswith(":"):
                        if line[1:].strip() == "ready":  # the stream follows: now catch up on what is already waiting
                            yield None, "open", None
                    else:
                        field, _, value = line.partition(":")
                        value = value[1:] if value.startswith(" ") else value
                        if field == "id":
                            event_id = value
                        elif field == "event":
                            kind = value
                        elif field == "data":
                            data.append(value)
        except urllib.error.HTTPError as error:
            if error.code < 500 and error.code != 429:
                raise ApiError(error.code, json.loads(error.read().decode() or "{}")) from None
        except OSError:
            pass  # dropped: reconnect after the last id
        time.sleep(min(15, 0.25 * 2 ** failures))
        failures += 1


def run(until_game=None):
    for _, kind, event in feed():
        if kind == "open":
            turns = call("GET", "/me/turns?first=100")["items"]
            for turn in turns:
                play(turn["gameId"])
            if until_game and call("GET", f"/games/{until_game}")["status"] != "active":
                return
        elif kind == "yourTurn" and event.get("gameId"):
            play(event["gameId"])
        elif kind == "gameFinished" and event.get("gameId") == until_game:
            return


def main():
    global token
    if not token:
        made = call("POST", "/players", {"name": os.environ.get("BOT_NAME", f"pybot{int(time.time()) % 10**9}"), "bot": True})
        token = made["token"]
        print(json.dumps({"registered": made["player"]["name"], "playerId": made["player"]["id"], "token": token}), flush=True)
    game_id = os.environ.get("GAME_ID")
    if not game_id and not os.environ.get("WAIT"):
        lobby = call("POST", "/lobbies", {"preset": "short", "rated": False})
        level = os.environ.get("LEVEL", "basic")
        call("POST", f"/lobbies/{lobby['id']}/bots", {"level": level})
        game_id = call("POST", f"/lobbies/{lobby['id']}/bots", {"level": level})["gameId"]
        print(json.dumps({"playing": game_id}), flush=True)
    run(game_id)
    if game_id:
        players = call("GET", f"/games/{game_id}")["players"]
        print(json.dumps({"finished": game_id, "players": [[p["name"], p["total"], p["place"]] for p in players]}), flush=True)


if __name__ == "__main__":
    main()
