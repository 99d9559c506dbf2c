"""Issue 27, item 5: chat spam. The chat rate is counted per seat (or signed-in player) and per
address, not per connection, so reconnecting does not start it again; a room's stored chat is bounded."""

from __future__ import annotations

from hallkit import Socket, join, new_room
from test_limits import run_apart

from parlour.hall.quotas import Limits
from parlour.hall.room.chat import CHAT_HISTORY
from parlour.hall.store import ChatLine
from parlour.hall.store.rooms import CHAT_KEPT


def heard(socket: Socket, text: str) -> dict:
    """The chat message carrying ``text``, or the error that came instead."""
    while True:
        message = socket.receive()
        if message["type"] == "error" or (message["type"] == "chat"
                                          and any(line["text"] == text for line in message["lines"])):
            return message


def said(client, code: str) -> list[str]:
    return [line.text for line in client.app.state.hall.rooms[code].chat.since(0)]


def test_a_seat_reconnecting_does_not_start_its_chat_rate_again(client):
    code = new_room(client)["code"]
    token = join(client, code, "Ana")["seat_token"]
    limit = int(Limits().chat.split("/")[0])
    for n in range(limit):  # a new connection for every line: each a reconnection
        with Socket(client, code) as talker:
            talker.send({"type": "hello", "token": token, "chat": True})
            talker.send({"type": "chat", "text": f"line {n}"})
            assert heard(talker, f"line {n}")["type"] == "chat"
    with Socket(client, code) as talker:
        talker.send({"type": "hello", "token": token, "chat": True})
        talker.send({"type": "chat", "text": "one too many"})
        refused = heard(talker, "one too many")
    assert refused["code"] == "rate_limited" and "chat lines" in refused["message"]
    assert "one too many" not in said(client, code)


def test_an_address_is_held_to_its_chat_rate_across_seats_and_rooms(client):
    per_seat, per_address = (int(rate.split("/")[0]) for rate in (Limits().chat, Limits().chat_address))
    rooms = -(-(per_address + 1) // per_seat)  # enough seats to say one line more than the address may
    answers = []
    for r in range(rooms):
        code = new_room(client)["code"]
        token = join(client, code, f"Ana{r}")["seat_token"]
        with Socket(client, code) as talker:
            talker.send({"type": "hello", "token": token, "chat": True})
            for n in range(per_seat):
                talker.send({"type": "chat", "text": f"line {r}.{n}"})
                answers.append(heard(talker, f"line {r}.{n}")["type"])
    assert answers[:per_address] == ["chat"] * per_address
    assert answers[per_address] == "error"  # each seat is under its own rate; the address is not


def test_a_rooms_stored_chat_is_bounded(client):
    code = new_room(client)["code"]
    store = client.app.state.hall.store

    async def say_many() -> list[ChatLine]:
        for n in range(1, CHAT_KEPT + 60):  # line 0 is the room's first
            await store.append_chat(code, ChatLine(n, float(n), "spectator", None, "x", f"line {n}"))
        return await store.chat(code, CHAT_KEPT * 2)

    kept = run_apart(say_many())
    assert len(kept) == CHAT_KEPT and kept[-1].text == f"line {CHAT_KEPT + 59}"
    assert CHAT_HISTORY <= CHAT_KEPT
