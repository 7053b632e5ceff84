"""What the OLED says for ICO, in English and in the seed's Japanese (seed 003's words:
docs/glossary.md), and the rules' refusals it may meet on the pad, in Japanese."""

from __future__ import annotations

from firmware_host.refusals import phrasebook
from firmware_host.screens.words import Words

WORDS: Words = {
    "name": {"en": "ICO", "ja": "ICO"},
    "prompt.place": {"en": "1-3 place", "ja": "1-3で置く"},
    "prompt.move": {"en": "1-3 roll", "ja": "1-3で移動"},
    "prompt.roll": {"en": "OK roll", "ja": "OK:移動"},
    "status": {"en": "t{turn} {face}", "ja": "{turn}手目 {face}"},
    "left": {"en": "{n} left", "ja": "残り{n}個"},
    # the balance rules (rules.ico.balance: the view's balance_rule)
    "rule.colour balance": {"en": "colour balance", "ja": "色バランス"},
    "rule.count balance": {"en": "count balance", "ja": "個数バランス"},
    "rule.redoubling": {"en": "redoubling", "ja": "2個目のマーカー"},
    "rule.one marker per edge": {"en": "one marker per edge", "ja": "1辺に1個"},
    "rule.move only": {"en": "move only", "ja": "移動のみ"},
    "rule.no markers left": {"en": "no markers left", "ja": "マーカーなし"},
    # the pad's own refusals
    "edge_forbidden": {"en": "{rule} forbids edge {button}: use {legal}",
                       "ja": "{rule}により辺{button}には置けません。置ける辺: {legal}"},
    "edge_or": {"en": "{a} or {b}", "ja": "{a}か{b}"},
    "no_place": {"en": "{rule}: you place nothing; 1-3 rolls the face across that edge",
                 "ja": "{rule}: マーカーは置けません。1-3でその辺を越えて移動します"},
    "roll_now": {"en": "the marker is placed: OK rolls the face across it",
                 "ja": "マーカーを置きました。OKでその辺を越えて移動します"},
    "no_claim": {"en": "Back claims a win only with manual claims, after placing",
                 "ja": "Backでの勝利宣言は手動宣言のゲームで、置いた後だけです"},
    "edge_keys": {"en": "dots 1, 2, 3 (or 4, 5, 6) choose the face's edges",
                  "ja": "ドット1・2・3(または4・5・6)で三角形の辺を選びます"},
    # how a game ends (rules.ico.Reason)
    "reason.figure_covered": {"en": "{winner} covered a winning figure.",
                              "ja": "{winner}が勝利の図形を完成させました。"},
    "reason.out_of_markers": {"en": "Every player ran out of markers: a draw.",
                              "ja": "全員のマーカーが尽きて引き分けです。"},
    "reason.board_full": {"en": "Every edge holds a marker: a draw.",
                          "ja": "すべての辺にマーカーがあり引き分けです。"},
    "reason.turn_cap": {"en": "The turn cap ({turn_cap}) was reached: a draw.",
                        "ja": "ターン上限({turn_cap})に達して引き分けです。"},
    # the rules' refusals (rules.ico)
    "refusal.forbids": {"en": "the balance rules forbid edge {edge}",
                        "ja": "バランスのルールにより辺{edge}には置けません"},
    "refusal.no_win": {"en": "no win to claim: play continues",
                       "ja": "勝利宣言はできません(図形が完成していません)。ゲームは続きます"},
    "refusal.placed": {"en": "you have already placed: roll the face",
                       "ja": "このターンはもう置きました。三角形を移動してください"},
    "refusal.cannot_place": {"en": "you cannot place this turn: roll the face",
                             "ja": "このターンは置けません。三角形を移動してください"},
    "refusal.not_active": {"en": "{edge} is not an edge of the active face",
                           "ja": "{edge}はアクティブな三角形の辺ではありません"},
}

#: The rules' refusals (``rules.ico``) → the words that say them in Japanese.
REFUSALS = phrasebook(
    (r"^.+ forbids (?P<edge>\S+): ", "refusal.forbids"),
    (r"^no win to claim", "refusal.no_win"),
    (r"^you have already placed this turn", "refusal.placed"),
    (r"^you cannot place", "refusal.cannot_place"),
    (r"^(?P<edge>\S+) is not an edge of the active face", "refusal.not_active"),
)
