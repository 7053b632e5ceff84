"""What the OLED says for UNLOCK, in English and in the seed's Japanese (seed 000's words:
docs/glossary.md), and the rules' refusals it may meet on the pad, in Japanese."""

from __future__ import annotations

from firmware_host.refusals import phrasebook
from firmware_host.screens.words import Words

WORDS: Words = {
    "name": {"en": "UNLOCK", "ja": "アンロック"},
    "secret": {"en": "secret:", "ja": "秘密のコード"},
    "turn": {"en": "turn {turn}:", "ja": "ターン{turn}"},
    "scores_turn": {"en": "Scores t{turn}", "ja": "得点 ターン{turn}"},
    "level.easy": {"en": "Easy", "ja": "やさしい"},
    "level.medium": {"en": "Medium", "ja": "ふつう"},
    "level.hard": {"en": "Hard", "ja": "むずかしい"},
    "draw": {"en": "draw...", "ja": "描いて…"},
    "ok_back": {"en": "OK  Back", "ja": "OK  Back"},
    "pad_ok_back": {"en": "pad OK/Back", "ja": "本体OK/Back"},
    # the hint (OK held with nothing drawn)
    "codes_left": {"en": "{n} left", "ja": "残り{n}通り"},
    "hold_ok": {"en": "hold OK", "ja": "OK長押し"},
    "for_hint": {"en": "for hint", "ja": "でヒント"},
    "ok_use": {"en": "OK: use it", "ja": "OK:使う"},
    "box_playing": {"en": "The box plays {name}: a moment, please.",
                    "ja": "{name}は本体が操作しています。少しお待ちください。"},
    "waiting": {"en": "Waiting for the other players.",
                "ja": "他のプレイヤーの入力を待っています。"},
    "reveal": {"en": "T{turn}", "ja": "ターン{turn}"},
    "col.hit": {"en": "hit", "ja": "一致"},
    "col.miss": {"en": "mis", "ja": "外れ"},
    "col.points": {"en": "pts", "ja": "点"},
    "col.total": {"en": "tot", "ja": "計"},
    "repeat": {"en": "rep", "ja": "重複"},
    "ok_more": {"en": "OK: more", "ja": "OK:続き"},
    "ok_next": {"en": "OK: next", "ja": "OK:次へ"},
    "the_secret": {"en": "secret", "ja": "秘密"},
    # the pad's own refusals
    "grid4_pad_dots": {
        "en": "a 4x4 code is drawn on the keypad: each key is the dot in its place "
              "(1 2 3 A / 4 5 6 B / 7 8 9 C / * 0 # D); OK and Back are the pad's buttons",
        "ja": "4×4のコードはキーパッドで描きます。各キーが同じ位置のドットです"
              "(1 2 3 A / 4 5 6 B / 7 8 9 C / * 0 # D)。OKとBackは本体のボタンです"},
    "grid4_dots_here": {"en": "the pad's dots are not the 4x4 card's: use the keypad",
                        "ja": "本体のドットは4×4のカードに対応しません。"
                              "キーパッドを使ってください"},
    "too_short": {"en": "draw at least one line: two dots or more",
                  "ja": "線を1本以上描いてください(ドット2つ以上)"},
    "too_short_hint": {"en": "draw at least one line: two dots or more (hold OK for a hint)",
                       "ja": "線を1本以上描いてください(ドット2つ以上)。OK長押しでヒント"},
    "privacy_ok": {"en": "{name} takes the pad and presses OK first: nothing is entered "
                         "before that",
                   "ja": "{name}がパッドを受け取ってからOKを押してください。"
                         "それまで入力はできません"},
    "reveal_ok": {"en": "read the results, then OK", "ja": "結果を確認してOKを押してください"},
    "not_pad_turn": {"en": "every code of this turn is in: waiting for the phones",
                     "ja": "このターンのコードは揃っています。スマホの入力を待っています"},
    # how a game ends (rules.unlock.Reason)
    "reason.found": {"en": "The secret code was found.", "ja": "秘密のコードが推測されました。"},
    "reason.tie_break": {"en": "Scores tied; {winner} found the secret code.",
                         "ja": "同点で、{winner}が秘密のコードを推測しました。"},
    "reason.tie": {"en": "Scores tied: play again, say the rules.",
                   "ja": "同点で決着がつきません。ルールではもう一度プレイします。"},
    "reason.shared_win": {"en": "Scores tied: every tied guesser wins.",
                          "ja": "同点の推測者全員の勝ちです。"},
    "reason.turn_limit": {"en": "Nobody found the secret code in time: all score 0.",
                          "ja": "ターン制限までに誰も推測できず、全員0点です。"},
    # the rules' refusals (rules.unlock), in the seed's words
    "refusal.cross": {"en": "lines {a} and {b} cross; crossing is not allowed on {level}",
                      "ja": "線{a}と{b}が交差しています({level}では交差できません)"},
    "refusal.too_long": {"en": "line {line} joins dots that are not neighbours",
                         "ja": "線{line}は隣り合わないドットを結んでいます(やさしいでは不可)"},
    "refusal.loop": {"en": "{code} ends on its start dot {dot}: loops only on Hard",
                     "ja": "{code}は始点{dot}で終わっています(ループはむずかしいのみ)"},
    "refusal.passes_used": {"en": "line {line} passes over dot {dot}, which the path uses",
                            "ja": "線{line}は使用済みのドット{dot}の上を通っています。"
                                  "同じドットを2回通過することはできません"},
    "refusal.crossed_twice": {"en": "lines {a} and {b} both pass over dot {dot}",
                              "ja": "線{a}と{b}がどちらもドット{dot}を通過しています。"
                                    "同じドットを2回通過することはできません"},
    "refusal.crossed": {"en": "dot {dot} was crossed by line {line}",
                        "ja": "ドット{dot}は線{line}が通過済みです。"
                              "同じドットを2回通過することはできません"},
    "refusal.stroke_over_used": {"en": "the stroke {a}-{b} passes over used dot {dot}",
                                 "ja": "線{a}-{b}は使用済みのドット{dot}の上を通っています"},
    "refusal.crosses_again": {"en": "line {line} passes over dot {dot}, already crossed",
                              "ja": "線{line}は通過済みのドット{dot}の上を通っています。"
                                    "同じドットを2回通過することはできません"},
    "refusal.used_twice": {"en": "dot {dot} is used twice", "ja": "ドット{dot}が2回使われています"},
    "refusal.short_loop": {"en": "a closed loop needs at least 3 lines",
                           "ja": "ループは3本以上の線が必要です"},
    "refusal.loop_closed": {"en": "the loop is closed; nothing can follow it",
                            "ja": "ループは閉じています。続けて描けません(Backで1つ戻す)"},
    "refusal.off_card": {"en": "dot {dot} is not on the card",
                         "ja": "ドット{dot}はカードにありません"},
    "refusal.repeat": {"en": "{code} was already played in turn {turn}",
                       "ja": "{code}はターン{turn}にすでに描かれたコードです。"
                             "別のコードを描いてください"},
    "refusal.already_guessed": {"en": "{name} has already guessed this turn",
                                "ja": "{name}はこのターンすでに推測しました"},
    "refusal.no_secret_yet": {"en": "the Lock has not set the secret yet",
                              "ja": "ロックがまだ秘密のコードを決めていません"},
    "refusal.secret_set": {"en": "the secret is already set",
                           "ja": "秘密のコードはすでに決まっています"},
    # the session's and the hint engine's refusals of a hint
    "refusal.hints_off": {"en": "the host has turned hints off for this game",
                          "ja": "ホストがこのゲームのヒントをオフにしています"},
    "refusal.hint_lock": {"en": "the Lock knows the code: hints are for the guessers",
                          "ja": "ロックは秘密のコードを知っています。ヒントは推測者用です"},
    "refusal.hint_submitted": {"en": "you have already entered your code for this turn",
                               "ja": "このターンのコードはすでに入力しました"},
    "refusal.hint_not_yet": {"en": "hints are given while the guessers are guessing",
                             "ja": "ヒントは推測者がコードを描く間だけ使えます"},
    "refusal.hint_grid4": {"en": "hints need the 3x3 card",
                           "ja": "ヒントは3×3のカードだけです(4×4はコードが多すぎます)"},
    "refusal.hint_none_fit": {"en": "no code of the level fits the clue board",
                              "ja": "手がかりボードのすべてのカードに合うコードがありません"},
    "refusal.hint_bot": {"en": "that player is played by the box",
                         "ja": "このプレイヤーは本体が操作しています"},
    "refusal.lock_guesses": {"en": "the Lock does not guess", "ja": "ロックは推測しません"},
    "refusal.only_lock": {"en": "only the Lock ({name}) sets the secret code",
                          "ja": "秘密のコードを決めるのはロック({name})だけです"},
}

#: The rules' refusals (``rules.unlock``) → the words that say them in Japanese.
REFUSALS = phrasebook(
    (r"^lines (?P<a>\d+-\d+) and (?P<b>\d+-\d+) cross; crossing is not allowed on "
     r"(?P<level>\w+)", "refusal.cross"),
    (r"^line (?P<line>\d+-\d+) joins dots that are not neighbours", "refusal.too_long"),
    (r"^(?P<code>[\d-]+) starts and ends on dot (?P<dot>\d+)", "refusal.loop"),
    (r"^line (?P<line>\d+-\d+) passes over dot (?P<dot>\d+), which the path uses",
     "refusal.passes_used"),
    (r"^lines (?P<a>\d+-\d+) and (?P<b>\d+-\d+) both pass over dot (?P<dot>\d+)",
     "refusal.crossed_twice"),
    (r"^dot (?P<dot>\d+) was crossed by line (?P<line>\d+-\d+)", "refusal.crossed"),
    (r"^the stroke (?P<a>\d+)-(?P<b>\d+) passes over dot (?P<dot>\d+)",
     "refusal.stroke_over_used"),
    (r"^line (?P<line>\d+-\d+) passes over dot (?P<dot>\d+), which line",
     "refusal.crosses_again"),
    (r"^dot (?P<dot>\d+) is used twice", "refusal.used_twice"),
    (r"closes a loop of \d+ lines", "refusal.short_loop"),
    (r"^the loop is closed", "refusal.loop_closed"),
    (r"^dot (?P<dot>\d+) is not on the", "refusal.off_card"),
    (r"^(?P<code>[\d-]+) was already played in turn (?P<turn>\d+)", "refusal.repeat"),
    (r"^(?P<name>.+) \(seat \d+\) has already guessed", "refusal.already_guessed"),
    (r"^the Lock has not set the secret yet", "refusal.no_secret_yet"),
    (r"^the secret is already set", "refusal.secret_set"),
    (r"^the host has turned hints off", "refusal.hints_off"),
    (r"^the Lock knows the code", "refusal.hint_lock"),
    (r"^you have already entered your code for this turn", "refusal.hint_submitted"),
    (r"^hints are given while the guessers are guessing", "refusal.hint_not_yet"),
    (r"^hints need the 3×3 card", "refusal.hint_grid4"),
    (r"^no code of the level fits every card", "refusal.hint_none_fit"),
    (r"^seat \d+ is played by the box", "refusal.hint_bot"),
    (r"^the Lock does not guess", "refusal.lock_guesses"),
    (r"^only the Lock \((?P<name>.+), seat \d+\) sets the secret", "refusal.only_lock"),
)
