"""What the OLED says for Hacktrick, in English and in the seed's Japanese (seed 001's words:
docs/glossary.md), and the rules' refusals it may meet on the pad, in Japanese."""

from __future__ import annotations

from firmware_host.refusals import phrasebook
from firmware_host.screens.words import Words

WORDS: Words = {
    "name": {"en": "Hacktrick", "ja": "ハックトリック"},
    # prompts beside the board (one line each, the board's right column)
    "prompt.choose": {"en": "card 0-5\nOK: draw", "ja": "カード0-5\nOK:ドロー"},
    "prompt.declare": {"en": "1: Play!\n3: Guard!\nOK: none",
                       "ja": "1:プレイ宣言\n3:ガード宣言\nOK:宣言なし"},
    "prompt.lead": {"en": "lead 0-5", "ja": "0-5を出す"},
    "prompt.hand": {"en": "OK: draw\nBack: ask", "ja": "OK:ドロー\nBack:アスク"},
    "prompt.must_play": {"en": "play 0-5\nBack: ask", "ja": "0-5をプレイ\nBack:アスク"},
    "prompt.only_play": {"en": "play 0-5", "ja": "0-5をプレイ"},
    "prompt.confirm_draw": {"en": "OK: draw\nBack: no", "ja": "OK:ドロー\nBack:やめる"},
    "prompt.confirm_ask": {"en": "OK: ask sum\nBack: no", "ja": "OK:合計を聞く\nBack:やめる"},
    "prompt.play": {"en": "OK: play {value}\nagain: ×2",
                    "ja": "OK:{value}をプレイ\nもう一度:×2"},
    "prompt.play_x2": {"en": "OK: play {value}\n×2 marker", "ja": "OK:{value}をプレイ\n×2マーカー"},
    "prompt.lead_value": {"en": "OK: lead {value}\nBack: no",
                          "ja": "OK:{value}を出す\nBack:やめる"},
    "prompt.pass": {"en": "pass pad\nto {name}\nOK", "ja": "パッドを\n{name}へ\nOK"},
    "hint_open": {"en": "OK: see your hand", "ja": "OK:手札を見る"},
    # the status beside the board
    "row": {"en": "row {cards}", "ja": "列 {cards}"},
    "captured": {"en": "cap {counts}", "ja": "捕獲 {counts}"},
    "declared.play": {"en": "Play!", "ja": "プレイ!"},
    "declared.guard": {"en": "Guard!", "ja": "ガード!"},
    "must_play": {"en": "must play!", "ja": "プレイ必須!"},
    "no_play": {"en": "no Play!", "ja": "プレイ宣言不可"},
    "versus": {"en": "vs {size}c", "ja": "相手{size}枚"},
    "versus_sum": {"en": "vs {size}c sum{sum}", "ja": "相手{size}枚 計{sum}"},
    "game_over": {"en": "Game over\nOK: results", "ja": "ゲーム終了\nOK:結果"},
    # a round's result
    "round": {"en": "Round {round}", "ja": "ラウンド{round}"},
    "round_won": {"en": "{who} wins the round (+{points}): {how}. Score: {score}",
                  "ja": "{who}がラウンドに勝利(+{points}): {how}。得点: {score}"},
    "end.three_on_a_square": {"en": "three markers on one square",
                              "ja": "1つのマスにマーカー3つ"},
    "end.line": {"en": "a marker on each square of a line",
                 "ja": "ラインの全マスにマーカー"},
    "end.out_of_markers": {"en": "the opponent ran out of markers",
                           "ja": "相手のマーカーが尽きた"},
    "end.no_move": {"en": "the opponent could take no turn",
                    "ja": "相手が手番を行えない"},
    # the pad's own refusals
    "hold_no": {"en": "you hold no {value}", "ja": "{value}のカードを持っていません"},
    "no_card_reaches": {"en": "no card reaches square {square}: after a {rightmost} a card "
                              "lands on square {reach}",
                        "ja": "マス{square}に届くカードはありません。右端が{rightmost}のとき"
                              "カードはマス{reach}に置かれます"},
    "read_round": {"en": "read the round's result, then OK",
                   "ja": "ラウンドの結果を確認してOKを押してください"},
    "open_hand": {"en": "{name} takes the pad and presses OK to see the hand",
                  "ja": "{name}がパッドを受け取り、OKで手札を見てください"},
    "between_ok": {"en": "OK passes the pad on", "ja": "OKでパッドを渡します"},
    "declare_keys": {"en": "dot 1 declares Play!, dot 3 Guard!, OK none, Back goes back",
                     "ja": "ドット1でプレイの宣言、3でガードの宣言、OKで宣言なし、Backで戻る"},
    # how a game ends (rules.hacktrick.endings.Reason)
    "reason.target_reached": {"en": "{winner} reached {target} excellence points.",
                              "ja": "{winner}がエクセレンスポイント{target}点に到達しました。"},
    # the rules' refusals (rules.hacktrick)
    "refusal.rightmost": {"en": "a card equal to the rightmost card ({card}) cannot be played",
                          "ja": "カード列の右端と同じカード({card})は出せません"},
    "refusal.hand_full": {"en": "you hold {n} cards: draw only with fewer",
                          "ja": "手札が{n}枚あるのでドローできません"},
    "refusal.no_card_left": {"en": "there is no card left to draw",
                             "ja": "山札にカードがありません"},
    "refusal.under_play": {"en": "Play! was declared against you: play a card",
                           "ja": "プレイの宣言を受けています。カードを出してください"},
    "refusal.under_guard": {"en": "Guard! was declared against you: no Play! this turn",
                            "ja": "ガードの宣言を受けています。"
                                  "このターンはプレイの宣言はできません"},
    "refusal.ask_once": {"en": "Ask the sum is allowed once a turn",
                         "ja": "アスク・ザ・サムは1ターンに1回だけです"},
    "refusal.ask_no_capture": {"en": "Ask the sum needs a captured marker",
                               "ja": "アスク・ザ・サムには捕獲したマーカーが必要です"},
    "refusal.no_x2": {"en": "your ×2 marker is not in your supply",
                      "ja": "×2マーカーが手元にありません"},
    "refusal.no_marker": {"en": "you have no plain marker left to place",
                          "ja": "手元に置けるマーカーがありません"},
    "refusal.declare_none": {"en": "declaring discards one of your markers, and you have none",
                             "ja": "宣言には手元のマーカーが1つ必要ですが、ありません"},
    "refusal.all_in_row": {"en": "all three {card}s are already in the row",
                           "ja": "{card}はすでに3枚ともカード列にあります"},
}

#: The rules' refusals (``rules.hacktrick``) → the words that say them in Japanese.
REFUSALS = phrasebook(
    (r"^a card equal to the rightmost card of the row \((?P<card>\d+)\)", "refusal.rightmost"),
    (r"^you hold (?P<n>\d+) cards: you may draw only with fewer", "refusal.hand_full"),
    (r"^there is no card left to draw", "refusal.no_card_left"),
    (r"^Play! was declared against you", "refusal.under_play"),
    (r"^Guard! was declared against you", "refusal.under_guard"),
    (r"^Ask the sum is allowed only once a turn", "refusal.ask_once"),
    (r"^Ask the sum discards a captured", "refusal.ask_no_capture"),
    (r"^your ×2 marker is not in your supply", "refusal.no_x2"),
    (r"^you have no plain marker", "refusal.no_marker"),
    (r"^declaring", "refusal.declare_none"),
    (r"^all three (?P<card>\d+)s are already in the row", "refusal.all_in_row"),
    (r"^you hold no (?P<value>\d+)", "hold_no"),
)
