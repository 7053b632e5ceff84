"""UNLOCK on the panel: the board (``board.js``), the finger-drawn code pad (``pattern.js``) and
UNLOCK's words in English and Japanese (the seeds' words: ``docs/glossary.md``)."""

from __future__ import annotations

from pathlib import Path

from web_panel.games import PanelGame

TEXTS = {
    # the board
    "the_lock": {"en": "Lock", "ja": "ロック"},
    "tournament_leader": {"en": "Lock: {name}", "ja": "ロック: {name}"},
    "difficulty_easy": {"en": "Easy", "ja": "やさしい"},
    "difficulty_medium": {"en": "Medium", "ja": "ふつう"},
    "difficulty_hard": {"en": "Hard", "ja": "むずかしい"},
    "submitted": {"en": "Submitted", "ja": "提出済み"},
    "the_secret": {"en": "The secret code", "ja": "秘密のコード"},
    "your_guess": {"en": "Your code this turn", "ja": "今回のあなたのコード"},
    "codes_remaining": {"en": "{n} codes still fit the clue board.",
                        "ja": "手がかりに合うコードは残り {n} 通り。"},
    "score_track": {"en": "Score track", "ja": "得点トラック"},
    "scores": {"en": "Scores", "ja": "得点"},
    "matches_n": {"en": "Cards with {n} matches", "ja": "一致 {n} のカード"},
    "clue_said": {"en": "{name}, turn {turn}: {code}, {matches} matches, {misses} misses, "
                        "{points} points",
                  "ja": "{name}(ターン {turn}):{code}、一致 {matches}、不一致 {misses}、"
                        "{points} 点"},
    "codes_drawn": {"en": "Codes drawn", "ja": "描いたコード"},
    "best_matches": {"en": "Best matches", "ja": "最多の一致"},
    "clue_board": {"en": "Clue board (columns by matches)", "ja": "手がかりボード(一致数ごとの列)"},
    "no_clues": {"en": "No cards yet.", "ja": "まだカードはありません。"},
    "opened_lock": {"en": "Opened the lock", "ja": "解錠"},
    # the move log
    "move_secret": {"en": "{name} set the secret code.",
                    "ja": "{name} が秘密のコードを決めました。"},
    "move_secret_code": {"en": "{name} set the secret code {code}.",
                         "ja": "{name} が秘密のコード {code} を決めました。"},
    "move_guess": {"en": "{name} drew a code.", "ja": "{name} がコードを描きました。"},
    "move_guess_code": {"en": "{name} drew {code}.", "ja": "{name} がコード {code} を描きました。"},
    "rules_help": {
        "en": "The Lock draws a secret code: a path of straight lines between dots. Each turn "
              "every other player (a guesser) draws one code in secret.\n"
              "Each line of your code that is also in the secret is a match (+1 point), each "
              "other line a miss (−1). Your card goes on the clue board in the column of its "
              "matches, for everyone to deduce from.\n"
              "A code drawn before may not be drawn again. Easy: only neighbouring dots, no "
              "crossing lines. Medium: longer lines too. Hard: lines may cross and a code may "
              "end where it started.\n"
              "Whoever draws the secret code ends the game; the highest score wins.",
        "ja": "ロックは秘密のコード(ドットを結ぶ直線の経路)を描きます。各ターン、ほかの"
              "プレイヤー(推測者)は全員がそれぞれ秘密にコードを1つ描きます。\n"
              "自分のコードの線のうち秘密のコードにもある線が一致(+1点)、それ以外の線は"
              "不一致(−1点)。カードは一致数の列に置かれ、全員の手がかりになります。\n"
              "すでに描かれたコードは描けません。やさしい:隣り合うドットだけ、線は交差しない。"
              "ふつう:離れたドットも結べる。むずかしい:交差と、始点に戻るループも可。\n"
              "秘密のコードが推測されるとゲーム終了、最高得点のプレイヤーの勝ちです。"},
    # the code pad
    "draw_code": {"en": "Draw your code", "ja": "コードを描いてください"},
    "undo_dot": {"en": "Undo dot", "ja": "1つ戻す"},
    "clear": {"en": "Clear", "ja": "消去"},
    "submit": {"en": "Submit", "ja": "送信"},
    "draw_secret": {"en": "Draw the secret code", "ja": "秘密のコードを描いてください"},
    "draw_guess": {"en": "Draw your code for turn {turn}",
                   "ja": "ターン {turn} のコードを描いてください"},
    "pad_empty": {"en": "Touch a dot and draw the code in one stroke.",
                  "ja": "ドットに触れ、コードを一筆で描いてください。"},
    "pad_label": {"en": "Dots to draw your code on (or use the dot buttons)",
                  "ja": "コードを描くドット(ドットのボタンでも入力できます)"},
    "dot_buttons": {"en": "Enter the code with buttons", "ja": "ボタンでコードを入力"},
    "dot_n_used": {"en": "Dot {n} (in the code)", "ja": "ドット {n}(使用済み)"},
    "hint_ok": {"en": "This code obeys the level.",
                "ja": "このコードはレベルの条件を満たしています。"},
    "hint_too_long": {"en": "line {line} joins dots that are not neighbours "
                            "(not allowed on Easy)",
                      "ja": "線 {line} は隣り合わないドットを結んでいます(やさしいでは不可)"},
    "hint_cross": {"en": "lines {a} and {b} cross; crossing is not allowed on {level}",
                   "ja": "線 {a} と {b} が交差しています({level} では交差不可)"},
    "hint_repeat": {"en": "{code} was already drawn in an earlier turn",
                    "ja": "{code} はすでに描かれたコードです"},
    "hint_passes_used": {"en": "the stroke passes over dot {dot}, which is already used",
                         "ja": "使用済みのドット {dot} の上を通っています"},
    "hint_crossed": {"en": "dot {dot} was crossed by line {line}: the path can't cross the "
                           "same dot twice",
                     "ja": "ドット {dot} は線 {line} が通過済みです"
                           "(経路は同じドットを2回通過することはできません)"},
    "hint_crosses_again": {"en": "the stroke passes over dot {dot}, which line {line} already "
                                 "crossed: the path can't cross the same dot twice",
                           "ja": "線 {line} が通過したドット {dot} の上をもう一度通っています"
                                 "(経路は同じドットを2回通過することはできません)"},
    "hint_used": {"en": "dot {dot} is already used", "ja": "ドット {dot} はすでに使われています"},
    "hint_used_loop": {"en": "dot {dot} is already used (loops only on Hard)",
                       "ja": "ドット {dot} は使用済みです(ループはむずかしいのみ)"},
    # the hint (POST /api/games/<id>/hint): asked for on the code pad, drawn on it as a ghost
    "hint.ask": {"en": "Hint", "ja": "ヒント"},
    "hint.asking": {"en": "Asking for a hint…", "ja": "ヒントを問い合わせ中…"},
    "hint.codes_left": {"en": "{n} codes left", "ja": "残り {n} 通り"},
    "hint.one_left": {"en": "1 code left: this is the secret code",
                      "ja": "残り 1 通り:これが秘密のコードです"},
    "hint.suggested": {"en": "Suggested code: {code} (dashed on the dots)",
                       "ja": "おすすめのコード:{code}(ドット上の点線)"},
    "hint.use": {"en": "Use this code", "ja": "このコードを使う"},
    "hint.ghost": {"en": "Suggested code {code}", "ja": "おすすめのコード {code}"},
    "hints_used": {"en": "Hints used", "ja": "使ったヒント"},
    "level_easy": {"en": "Easy", "ja": "やさしい"},
    "level_medium": {"en": "Medium", "ja": "ふつう"},
    "level_hard": {"en": "Hard", "ja": "むずかしい"},
    # how a game ends (rules.unlock.Reason)
    "reason.found": {"en": "{winner} has the highest score; the secret code was found.",
                     "ja": "秘密のコードが推測され、最高得点の {winner} の勝ちです。"},
    "reason.tie_break": {"en": "The top scores tied; {winner} found the secret code and wins.",
                         "ja": "最高得点が並び、秘密のコードを推測した {winner} の勝ちです。"},
    "reason.tie": {"en": "{tied} tied on the top score and the secret did not break the tie: "
                         "the rules say to play again.",
                   "ja": "{tied} が最高得点で並び、秘密のコードでも決着がつきませんでした。"
                         "ルールではもう一度プレイします。"},
    "reason.shared_win": {"en": "{tied} tied on the top score: every tied guesser wins "
                                "(shared win).",
                          "ja": "最高得点で並んだ {tied} 全員の勝ちです(同点勝利)。"},
    "reason.turn_limit": {"en": "Nobody found the secret code within the turn limit: "
                                "everyone scores 0 and loses.",
                          "ja": "ターン制限までに誰も秘密のコードを推測できず、"
                                "全員が0点の負けです。"},
    "reason.abandoned": {"en": "The host abandoned the game; it counts for nothing.",
                         "ja": "ホストがゲームを中止しました。記録には残りますが集計されません。"},
    # the options (the new-game form)
    "option.difficulty": {"en": "Difficulty level", "ja": "難易度レベル"},
    "help.difficulty": {
        "en": "Which codes are allowed. Easy: lines join neighbouring dots and never cross. "
              "Medium: longer lines too, still no crossings. Hard: lines may cross and a code "
              "may end where it started (a loop).",
        "ja": "使えるコードの条件。やさしい:隣り合うドットだけを結び、線は交差しない。"
              "ふつう:離れたドットも結べるが交差しない。むずかしい:線の交差と、始点に戻る"
              "ループを認める。"},
    "choice.difficulty.easy": {"en": "Easy", "ja": "やさしい"},
    "choice.difficulty.medium": {"en": "Medium", "ja": "ふつう"},
    "choice.difficulty.hard": {"en": "Hard", "ja": "むずかしい"},
    "option.size": {"en": "Card size", "ja": "カードの大きさ"},
    "help.size": {"en": "3×3 dots, or the designer's 4×4 expansion (entered on the keypad).",
                  "ja": "3×3のドット、またはデザイナーによる4×4拡張(本体ではキーパッドで入力)。"},
    "choice.size.3": {"en": "3×3", "ja": "3×3"},
    "choice.size.4": {"en": "4×4", "ja": "4×4"},
    "option.auto_connect": {"en": "Auto-connection", "ja": "自動接続"},
    "help.auto_connect": {
        "en": "A stroke over a dot joins that dot into the path (1→3 is 1-2-3), as the Japanese "
              "rules say. Off follows the English rules: the line passes over the dot, which "
              "is then crossed and may not be used again.",
        "ja": "2つのドットをつなぐ直線上にあるドットは自動的につながる(1→3 は 1-2-3)。"
              "オフは英語版ルール:線はドットの上を通過し、そのドットは以後使えない。"},
    "option.repeats": {"en": "A code drawn before", "ja": "すでに描かれたコード"},
    "help.repeats": {
        "en": "Refused (the guesser draws another), or accepted and scored 0 — useful when "
              "codes are drawn on paper first and entered afterwards. The rules say both.",
        "ja": "受け付けない(別のコードを描き直す)、または受け付けて0点とする"
              "(紙に描いてから入力する場合に便利)。ルールには両方の記述がある。"},
    "choice.repeats.reject": {"en": "refuse it", "ja": "受け付けない"},
    "choice.repeats.score_zero": {"en": "score it 0", "ja": "0点とする"},
    "option.turn_limit": {"en": "Turn limit", "ja": "ターン制限"},
    "help.turn_limit": {
        "en": "After this many turns without the secret found, everyone scores 0 and loses "
              "(10 in the Japanese rules; no limit in the English rules).",
        "ja": "このターン数までに秘密のコードが推測されなければ、全員が0点の負け"
              "(日本語版ルールは10ターン。英語版ルールには制限がない)。"},
    "option.shared_win": {"en": "Shared win on a tie", "ja": "同点なら全員勝利"},
    "help.shared_win": {
        "en": "A tie the secret cannot break makes every tied guesser a winner. This departs "
              "from the printed rules, which say to play again.",
        "ja": "秘密のコードでも決着しない同点では、並んだ推測者全員を勝ちとする。"
              "ルール(同点ならもう一度プレイ)とは異なる。"},
    "help.bots": {
        "en": "The box can play any seat. Let the box play the Lock (the first player unless "
              "you choose another Lock below) and nobody at the table has to: it draws a secret "
              "code at random that nobody sees until the game ends.",
        "ja": "本体はどの席でも操作できます。ロック(下で選ばなければ1人目のプレイヤー)を本体に"
              "すれば、卓の誰もロックをしなくて済みます。本体は秘密のコードをランダムに決め、"
              "ゲーム終了まで誰にも見せません。"},
    "option.lock": {"en": "The Lock", "ja": "ロック"},
    "help.lock": {"en": "The player who sets the secret code.",
                  "ja": "秘密のコードを決めるプレイヤー。"},
}

PANEL = PanelGame(id="unlock", folder=Path(__file__).parent,
                  scripts=("board.js", "pattern.js"), styles=("board.css",), texts=TEXTS,
                  private_moves=("secret", "guess"))
