"""What the OLED says for 2 1 6, in English and in the seed's Japanese (seed 004's words:
docs/glossary.md), and the rules' refusals it may meet on the pad, in Japanese."""

from __future__ import annotations

from firmware_host.refusals import phrasebook
from firmware_host.screens.words import Words

WORDS: Words = {
    "name": {"en": "2 1 6", "ja": "2 1 6"},
    "prompt.roll": {"en": "roll/OK", "ja": "サイコロかOK"},
    "prompt.place": {"en": "5/OK put {n}", "ja": "5/OK:{n}を置く"},
    "cell": {"en": "cell {value} {name}", "ja": "マス {value} {name}"},
    "cell_empty": {"en": "cell: -", "ja": "マス: -"},
    "game_over": {"en": "Game over", "ja": "ゲーム終了"},
    # the pad's own refusals
    "roll_keys": {"en": "a roll is due: roll the die, type the number, or OK to let the box "
                        "roll",
                  "ja": "サイコロを振る番です。サイコロを振るか、数字を入力するか、"
                        "OKで本体が振ります"},
    # a smart die's roll that is not entered (docs/dice.md)
    "die_not_theirs": {"en": "{die} rolled {value}, but this roll is {name}'s: not entered",
                       "ja": "{die}で{value}が出ましたが、今は{name}が振る番です。"
                             "入力されていません"},
    "die_other_faces": {"en": "{die} is a d{faces} and rolled {value}; this game rolls a "
                              "d{need}: not entered",
                        "ja": "{die}は{faces}面ダイスです({value}が出ました)。このゲームは"
                              "{need}面ダイスを使います。入力されていません"},
    # how a game ends (rules.dice216.Reason)
    "reason.highest_total": {"en": "{winner} has the highest total, {total}.",
                             "ja": "{winner}の合計値{total}が最高です。"},
    "reason.equal_totals": {"en": "The highest totals are equal ({total}): a draw.",
                            "ja": "最高の合計値が同じ({total})で引き分けです。"},
    # the rules' refusals (rules.dice216)
    "refusal.cell_taken": {"en": "cell {row} {col} already holds {value}",
                           "ja": "{row}行{col}列のマスにはすでに{value}があります。"
                                 "空いているマスに書いてください"},
    "refusal.roll_first": {"en": "nothing to place yet: roll the die first",
                           "ja": "まだ置く数字がありません。先にサイコロを振ってください"},
    "refusal.roll_waiting": {"en": "a roll of {value} is waiting to be placed",
                             "ja": "出た目{value}がまだ置かれていません"},
    "refusal.outside": {"en": "{roll} is outside 1…{faces}",
                        "ja": "{roll}はサイコロの目(1〜{faces})ではありません"},
    "refusal.size_for_players": {"en": "{n} players play on the 12×12 grid",
                                 "ja": "{n}人では12×12のマス目で遊びます"},
    "refusal.size_12": {"en": "the 12×12 grid is for 3 or 4 players",
                        "ja": "12×12のマス目は3人プレイ、4人プレイ用です"},
    "refusal.no_six_cells": {"en": "no diagonal of the {size}×{size} grid has six cells",
                             "ja": "{size}×{size}のマス目には6マスの斜めがありません。"
                                   "「角から角まで」を選んでください"},
}

#: The rules' refusals (``rules.dice216``) → the words that say them in Japanese.
REFUSALS = phrasebook(
    (r"^cell (?P<row>\d+) (?P<col>\d+) already holds (?P<value>\d+)", "refusal.cell_taken"),
    (r"^nothing to place yet", "refusal.roll_first"),
    (r"^a roll of (?P<value>\d+) is already waiting", "refusal.roll_waiting"),
    (r"^roll (?P<roll>\d+) is outside 1…(?P<faces>\d+)", "refusal.outside"),
    (r"^(?P<n>\d+) players play on the 12×12 grid", "refusal.size_for_players"),
    (r"^size 12 is the grid for 3–4 players", "refusal.size_12"),
    (r"^no diagonal of the (?P<size>\d+)×\d+ grid has six cells", "refusal.no_six_cells"),
)
