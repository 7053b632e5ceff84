"""The post-game analysis's words (issue 34), in English and Japanese (merged into
:data:`web_panel.messages.MESSAGES`). Every sentence is built from the analysis's numbers and
verdicts (``web_panel/analysis_view.py``), never translated from the English sentence the
analysis carries. Japanese uses the seeds' terms (docs/glossary.md): コード, 一致, 不一致,
ヒント, ターン; a move's evaluation is 評価値, as engines give it."""

from __future__ import annotations

ANALYSIS_MESSAGES: dict[str, dict[str, str]] = {
    "analysis_title": {"en": "After the game: analysis", "ja": "ゲーム後の分析"},
    "analysis_short_title": {"en": "After the game", "ja": "ゲーム後の分析"},
    "analysis_pending": {"en": "The analysis is being computed…", "ja": "分析を計算中です…"},
    "analysis_progress": {"en": "({percent}% done)", "ja": "({percent}% 完了)"},
    "analysis_still_pending": {
        "en": "The analysis is still being computed: open this page again in a moment.",
        "ja": "分析はまだ計算中です。しばらくしてからこのページを開き直してください。"},
    "analysis_abandoned": {"en": "The game was abandoned: the analysis covers it until then.",
                           "ja": "中止されたゲームです。分析は中止までの内容です。"},
    "analysis_players": {"en": "Each player", "ja": "プレイヤーごと"},
    # the evaluation (Hacktrick, ICO, 2 1 6): the hard bot weighs every move
    "analysis_eval_intro": {
        "en": "The box's hard bot weighed every move from the side of the player who made "
              "it: +1 is a won position for them, −1 a lost one, 0 even.",
        "ja": "本体の強いボットが、手を打ったプレイヤーの側から全ての手を評価しました。"
              "+1 はそのプレイヤーの勝ち、−1 は負け、0 は互角の局面です。"},
    "analysis_eval_graph": {"en": "The evaluation of each move, from the mover's side",
                            "ja": "各手の評価値(手を打ったプレイヤーから見た値)"},
    "analysis_move_n": {"en": "Move {n}", "ja": "{n} 手目"},
    "analysis_value": {"en": "evaluation {value}", "ja": "評価値 {value}"},
    "analysis_best": {"en": "the bot's best: {move} ({value})",
                      "ja": "ボットの最善手:{move}({value})"},
    "analysis_best_same": {"en": "the bot's best move too", "ja": "ボットの最善手と同じ"},
    "analysis_loss": {"en": "loss {loss}", "ja": "損失 {loss}"},
    "analysis_forced": {"en": "the only move", "ja": "唯一の手"},
    "analysis_turning_point": {"en": "turning point", "ja": "転機"},
    "analysis_turning_points": {"en": "Turning points", "ja": "転機"},
    "analysis_no_turning_point": {"en": "No move lost much: there is no turning point.",
                                  "ja": "大きく損をした手はなく、転機はありません。"},
    "analysis_turning_headline": {"en": "Turning points: moves {moves}.",
                                  "ja": "転機:{moves} 手目。"},
    "analysis_every_move": {"en": "Every move weighed ({n})", "ja": "評価した全ての手({n})"},
    "analysis_not_evaluated": {
        "en": "Played with table cards: the box never knew the hands, so no move can be "
              "weighed.",
        "ja": "卓上のカードでプレイしたため、本体は手札を知らず、手を評価できません。"},
    "analysis_eval_none": {"en": "{name}: no move to weigh.",
                           "ja": "{name}:評価する手はありません。"},
    "analysis_eval_summary": {
        "en": "{name}: {best} of {moves} moves as good as the bot's best; average loss {loss}.",
        "ja": "{name}:{moves} 手中 {best} 手がボットの最善手と同等、平均損失 {loss}。"},
    "analysis_eval_worst": {"en": "Largest loss at move {n}.", "ja": "最大の損失は {n} 手目。"},
    # UNLOCK: the codes that still fit the clue board
    "analysis_codes_intro": {
        "en": "How many codes of the level still fitted the clue board after each turn "
              "(a log scale: each grid line is ten times the one below).",
        "ja": "各ターンの後、手がかりボードに合うコードが何通り残ったか"
              "(対数目盛:目盛線は1本上がるごとに10倍)。"},
    "analysis_codes_graph": {"en": "Codes still fitting after each turn",
                             "ja": "各ターン後に残ったコードの数"},
    "analysis_level": {"en": "{n} codes in the level.", "ja": "このレベルのコードは {n} 通り。"},
    "analysis_level_mark": {"en": "all {n}", "ja": "全 {n} 通り"},
    "analysis_secret": {"en": "The secret code: {code}", "ja": "秘密のコード:{code}"},
    "analysis_start": {"en": "start", "ja": "開始"},
    "analysis_turn_n": {"en": "Turn {n}", "ja": "ターン {n}"},
    "analysis_turn_codes": {"en": "{before} → {after} codes", "ja": "{before} → {after} 通り"},
    "analysis_card": {"en": "{code}: {matches} matches, {misses} misses; left {left}, ruled "
                            "out {out}",
                      "ja": "{code}:一致 {matches}、不一致 {misses}。残り {left} 通り、"
                            "除外 {out} 通り"},
    "analysis_card_found": {"en": "the secret code", "ja": "秘密のコード"},
    "analysis_card_repeat": {"en": "{code}: drawn before, no clue",
                             "ja": "{code}:既出のコード(手がかりなし)"},
    "analysis_hint_card": {"en": "Hint: {code} would have left {left}, ruled out {out}",
                           "ja": "ヒント:{code} なら残り {left} 通り、除外 {out} 通り"},
    "analysis_hint_found": {"en": "Hint: {code}, the secret code itself",
                            "ja": "ヒント:{code}(秘密のコードそのもの)"},
    "analysis_certain": {"en": "Certain on turn {n}: one code left.",
                         "ja": "ターン {n} で確定(残り 1 通り)。"},
    "analysis_found": {"en": "Found on turn {n}.", "ja": "ターン {n} で推測されました。"},
    "analysis_never_certain": {"en": "Never certain: {n} codes still fitted at the end.",
                               "ja": "最後まで確定せず、{n} 通りが残りました。"},
    "analysis_mark_certain": {"en": "certain", "ja": "確定"},
    "analysis_mark_found": {"en": "found", "ja": "推測"},
    "analysis_not_counted": {
        "en": "The 4×4 card's codes are too many to count: the analysis has no figures.",
        "ja": "4×4 カードのコードは多すぎて数えられないため、分析に数値はありません。"},
    "analysis_codes_none": {"en": "{name} played no card before the game ended.",
                            "ja": "{name} はゲーム終了までにカードを出しませんでした。"},
    "analysis_codes_better": {
        "en": "{name}'s cards left {mine} codes on average; the hint's cards would have left "
              "{hint}: better than the hint.",
        "ja": "{name} のカードは平均 {mine} 通りを残しました。ヒントのカードなら {hint} 通りで、"
              "ヒントより良い結果です。"},
    "analysis_codes_equal": {
        "en": "{name}'s cards left {mine} codes on average, as many as the hint's cards.",
        "ja": "{name} のカードは平均 {mine} 通りを残しました。ヒントのカードと同じです。"},
    "analysis_codes_worse": {
        "en": "{name}'s cards left {mine} codes on average; the hint's cards would have left "
              "{hint}.",
        "ja": "{name} のカードは平均 {mine} 通りを残しました。ヒントのカードなら {hint} 通り"
              "でした。"},
}
