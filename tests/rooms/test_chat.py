"""Table chat (issue 19) on the manual clock: who talks, the rate limit, the word filter,
mutes for the muting player only, the operator's site-wide mute, bots silent, no card in any
chat frame, presets and emotes, the last messages on join, reports and the host's setting."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rooms_helpers import Recorder, Table, draw_config, holdem_config

from ahiko.rooms import commands as c
from ahiko.rooms.chat import CHAT_BACKLOG, CHAT_RATE_MESSAGES, CHAT_RATE_WINDOW_S, EMOTES, PRESETS
from ahiko.rooms.chat_words import WordFilter, clean_text, mask_cards
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.config import RoomKind
from ahiko.rooms.registry import RoomRegistry


def say(table: Table, pid: str, text: str = "", preset: str | None = None) -> c.Reply:
    return table.submit(c.Chat(pid, pid.title(), text, preset))


def chats(rec: Recorder) -> list[dict[str, Any]]:
    return [f["msg"] for f in rec.of("chat")]


def two_seated() -> tuple[Table, Recorder, Recorder]:
    table = Table(holdem_config())
    return table, table.join("ana", 0), table.join("bia", 1)


def test_chat_seated_players_talk_and_everyone_watching_reads() -> None:
    table, ana, bia = two_seated()
    spectator = table.connect(None)
    reply = say(table, "ana", "  boa   sorte a todos ")
    assert reply.ok and reply.data["text"] == "boa sorte a todos"
    for rec in (ana, bia, spectator):
        (msg,) = chats(rec)
        assert msg["name"] == "Ana" and msg["seat"] == 0 and msg["kind"] == "text"
        assert msg["text"] == "boa sorte a todos"


def test_chat_spectators_talk_only_when_the_host_allows_and_the_host_can_turn_it_off() -> None:
    table = Table(holdem_config(), host="host")
    host = table.join("host", 0)
    table.connect("caio")  # a signed-in spectator
    refused = say(table, "caio", "oi")
    assert refused.code == "chat_seated_only"
    assert not chats(host)
    assert table.submit(c.ChatSetting("caio", "everyone")).code == "not_host"
    assert table.ok(c.ChatSetting("host", "everyone")).data == {"mode": "everyone"}
    assert host.of("room")[-1]["room"]["chat"] == "everyone"
    assert say(table, "caio", "oi").ok
    assert chats(host)[-1]["seat"] is None
    table.ok(c.ChatSetting("host", "off"))
    assert say(table, "host", "alguém?").code == "chat_off"
    assert table.submit(c.ChatSetting("host", "loud")).code == "chat_malformed"
    assert table.room.chat.mode.value == "off"


def test_chat_ahiko_rooms_are_on_for_seated_players_and_fixed() -> None:
    table = Table(holdem_config(kind=RoomKind.AHIKO, action_deadline_s=20.0), host="")
    table.room.host_id = None
    assert table.room.chat.mode.value == "seated"
    assert table.submit(c.ChatSetting("ana", "off")).code == "not_host"


def test_chat_rate_limit_per_player_on_the_room_clock() -> None:
    table, _ana, bia = two_seated()
    for n in range(CHAT_RATE_MESSAGES):
        assert say(table, "ana", f"msg {n}").ok
    flood = [say(table, "ana", "flood") for _ in range(10)]
    assert {r.code for r in flood} == {"chat_rate_limited"}
    assert "wait" in flood[0].message
    assert len(chats(bia)) == CHAT_RATE_MESSAGES  # nothing of the flood went out
    assert say(table, "bia", "eu ainda posso").ok  # the limit is per player
    table.advance(CHAT_RATE_WINDOW_S)
    assert say(table, "ana", "de novo").ok


def test_chat_word_filter_masks_pt_br_and_english_words_and_the_operators_list(
    tmp_path: Path,
) -> None:
    table, _ana, _bia = two_seated()
    assert say(table, "ana", "que PORRA de river, fuck").data["text"] == "que ***** de river, ****"
    assert say(table, "ana", "Caralhó! sh1t").data["text"] == "*******! ****"  # accents, digits
    assert say(table, "ana", "puts, passei").data["text"] == "puts, passei"  # whole words only
    words = tmp_path / "words.txt"
    words.write_text("# extra\nabacaxi\n  banana  # fruit\n", encoding="utf-8")
    custom = WordFilter().with_file(words)
    assert custom.apply("Abacaxi e banana, porra") == "******* e ******, *****"
    table.room.chat.moderation.words = custom
    assert say(table, "bia", "abacaxi").data["text"] == "*******"


def test_chat_text_is_one_plain_line_of_at_most_200_characters() -> None:
    table, _ana, bia = two_seated()
    for text, code in (
        ("", "chat_empty"),
        ("   \t ", "chat_control_chars"),
        ("x" * 201, "chat_too_long"),
        ("oi\nbia", "chat_control_chars"),
        ("oi\x00", "chat_control_chars"),
    ):
        assert say(table, "ana", text).code == code, text
    # A right-to-left override draws nothing: removed, it cannot turn the line around.
    assert say(table, "ana", "oi\u202ebia").data["text"] == "oibia"
    assert say(table, "ana", "x" * 200).ok
    markup = '<b>oi</b> <a href="http://x.y">site</a> http://x.y'
    assert say(table, "ana", markup).data["text"] == markup  # kept as text, shown as text
    assert len(chats(bia)) == 3


def test_chat_mute_holds_for_the_muting_player_only() -> None:
    table, ana, bia = two_seated()
    caio = table.join("caio", 2)
    assert table.ok(c.ChatMute("ana", "bia")).data == {"muted": ["bia"]}
    assert say(table, "bia", "blá blá").ok
    assert chats(ana) == []
    assert [m["text"] for m in chats(caio)] == ["blá blá"]
    assert [m["text"] for m in chats(bia)] == ["blá blá"]
    late = table.connect("ana")  # a second tab of Ana's gets the backlog without Bia
    snap = late.of("snapshot")[-1]["chat"]
    assert snap["muted"] == ["bia"] and snap["messages"] == []
    caio_snap = table.connect("caio").of("snapshot")[-1]["chat"]
    assert [m["text"] for m in caio_snap["messages"]] == ["blá blá"]
    assert table.submit(c.ChatMute("ana", "ana")).code == "chat_mute_self"
    assert table.submit(c.ChatMute("ana", "nobody")).code == "chat_unknown_player"
    table.ok(c.ChatMute("ana", "bia", on=False))
    assert say(table, "bia", "voltei").ok
    assert [m["text"] for m in chats(ana)] == ["voltei"]


def test_chat_operator_mute_holds_across_rooms() -> None:
    clock = ManualClock()
    registry = RoomRegistry(clock=clock, room_options={"think": None})
    rooms = [registry.create(holdem_config(), host_id="ana").room for _ in range(2)]
    for room in rooms:
        for seat, pid in enumerate(("ana", "bia")):
            room.submit(c.Connect(f"conn-{pid}", pid))
            assert room.submit(c.Sit(pid, pid.title(), seat)).ok
    registry.moderation.site_mute("bia", until_ms=clock.wall_ms() + 60_000)
    for room in rooms:
        refused = room.submit(c.Chat("bia", "Bia", "oi"))
        assert refused.code == "chat_muted" and "until" in refused.message
        assert room.submit(c.Chat("ana", "Ana", "oi")).ok
    clock.advance(60)
    assert all(room.submit(c.Chat("bia", "Bia", "voltei")).ok for room in rooms)
    registry.moderation.site_mute("bia", until_ms=None)
    assert rooms[1].submit(c.Chat("bia", "Bia", "?")).code == "chat_muted"
    registry.moderation.site_unmute("bia")
    assert rooms[1].submit(c.Chat("bia", "Bia", "ok")).ok


def test_chat_bots_never_chat() -> None:
    table = Table(holdem_config())
    rec = table.join("host", 0)
    bot_id = table.ok(c.AddBot("host", "easy")).data["player_id"]
    assert table.submit(c.Chat(bot_id, "Bot 1", "gg")).code == "chat_bot"
    assert table.submit(c.Chat(bot_id, "Bot 1", preset="gg")).code == "chat_bot"
    table.ok(c.Start("host"))
    for _ in range(3):
        table.to_deal()
        table.play_hand_passively()
        table.advance(10)
    assert table.room.dealer.hands_dealt >= 3
    assert chats(rec) == []  # the bot said nothing in three hands


def _cards_of(table: Table) -> set[str]:
    """Every card of the deck of the hand just played, as text ("Ah")."""
    from ahiko.poker.cards import format_card

    hand = table.room.dealer.last_hand or table.room.dealer.hand
    assert hand is not None and hand.committer is not None
    return {format_card(card) for card in hand.committer.deck}


def test_chat_no_card_in_any_chat_frame_in_either_variant() -> None:
    for config in (holdem_config(), draw_config()):
        table, ana, bia = two_seated_in(config)
        assert say(table, "ana", "A♠ K♥ 🂡 que mão").code == "chat_names_card"  # held back
        table.to_deal()
        say(table, "ana", "boa sorte")
        say(table, "bia", preset="good_luck")
        table.play_hand_passively()
        assert say(table, "ana", "A♠ K♥ 🂡 que mão").ok  # the hand is over: masked
        say(table, "bia", preset="gg")
        cards = _cards_of(table)
        for rec in (ana, bia):
            frames = [f for f in rec.frames if f["t"] == "chat"] + [
                {"chat": f["chat"]} for f in rec.of("snapshot")
            ]
            assert len(frames) >= 4
            for frame in frames:
                text = json.dumps(frame, ensure_ascii=False)
                assert not any(ch in text for ch in "♠♥♦♣🂡"), text
                assert "cards" not in text and "hole" not in text
                for msg in [frame["msg"]] if "msg" in frame else frame["chat"]["messages"]:
                    assert set(msg) == {"no", "at_ms", "player_id", "name", "seat", "kind", "text"}
                    assert not cards & set(msg["text"].split()), msg
        assert chats(ana)[2]["text"] == "** ** * que mão"


def two_seated_in(config: Any) -> tuple[Table, Recorder, Recorder]:
    table = Table(config, host="ana")
    ana, bia = table.join("ana", 0), table.join("bia", 1)
    table.ok(c.Start("ana"))
    return table, ana, bia


def test_chat_mask_cards_keeps_words() -> None:
    assert mask_cards("Ah, que mão") == "Ah, que mão"
    assert mask_cards("10♦ e J♣") == "*** e **"
    assert clean_text("  a  b ") == "a b"


def test_chat_presets_and_emotes_carry_no_hand_information() -> None:
    table, _ana, bia = two_seated()
    for preset in PRESETS + EMOTES:
        table.advance(CHAT_RATE_WINDOW_S / CHAT_RATE_MESSAGES)
        assert say(table, "ana", preset=preset).ok, preset
    kinds = {m["text"]: m["kind"] for m in chats(bia)}
    assert kinds["gg"] == "preset" and kinds["smile"] == "emote"
    assert say(table, "ana", preset="i_have_aces").code == "chat_unknown_preset"
    assert say(table, "ana", "oi", preset="gg").code == "chat_malformed"
    assert not any(word in p for p in PRESETS for word in ("bluff", "fold", "ace", "pair", "card"))


def test_chat_last_messages_are_shown_on_join_within_a_bounded_time() -> None:
    table, _ana, _bia = two_seated()
    for n in range(CHAT_BACKLOG + 5):
        table.advance(CHAT_RATE_WINDOW_S)
        assert say(table, "ana" if n % 2 else "bia", f"m{n}").ok
    joined = table.connect("caio").of("snapshot")[-1]["chat"]
    texts = [m["text"] for m in joined["messages"]]
    assert len(texts) == CHAT_BACKLOG and texts[-1] == f"m{CHAT_BACKLOG + 4}"
    table.advance(31 * 60)
    assert table.connect("duda").of("snapshot")[-1]["chat"]["messages"] == []


def test_chat_messages_are_kept_for_moderation_and_can_be_reported() -> None:
    table, _ana, _bia = two_seated()
    no = say(table, "bia", "você é um babaca").data["no"]
    moderation = table.room.chat.moderation
    assert [r.text for r in moderation.kept] == ["você é um ******"]
    assert table.ok(c.ChatReport("ana", no, "ofensa")).data == {"no": no, "filed": True}
    assert table.ok(c.ChatReport("ana", no)).data["filed"] is False  # once per reporter
    assert table.submit(c.ChatReport("bia", no)).code == "chat_report_self"
    assert table.submit(c.ChatReport("ana", 999)).code == "chat_unknown_message"
    assert table.submit(c.ChatReport("ana", no, "a\nb")).code == "chat_control_chars"
    ((reporter, record, reason),) = moderation.reported
    assert (reporter, record.player_id, record.text, reason) == (
        "ana",
        "bia",
        "você é um ******",
        "ofensa",
    )
