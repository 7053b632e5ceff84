"""2 1 6 on the panel: the board (``board.js``: the roll, the grid, the tally line by line) and
2 1 6's words in English and Japanese (seed 004's words: ``docs/glossary.md``)."""

from __future__ import annotations

from pathlib import Path

from web_panel.games import PanelGame

TEXTS = {
    # the roll
    "roll_for": {"en": "Roll for {name}", "ja": "{name} のためにサイコロを振る"},
    "roll_for_handicap": {"en": "Roll {name}'s handicap", "ja": "{name} のハンデのサイコロを振る"},
    "rolling": {"en": "{name} rolls the die.", "ja": "{name} がサイコロを振ります。"},
    "rolling_handicap": {"en": "{name} rolls their handicap.",
                         "ja": "{name} がハンデのサイコロを振ります。"},
    "or_enter_die": {"en": "or enter what your die shows:",
                     "ja": "または実物のサイコロの目を入力:"},
    "place_hint": {"en": "Tap an empty cell to write your {n}.",
                   "ja": "空いているマスをタップして {n} を書き込みます。"},
    "cell_at": {"en": "Row {row}, column {column}", "ja": "{row} 行 {column} 列"},
    "cell_holds": {"en": "Row {row}, column {column}: {n}, {name}",
                   "ja": "{row} 行 {column} 列:{n}({name})"},
    "nobody_scores": {"en": "A line nobody dominates shows the sum of its cells and scores for "
                            "nobody.",
                      "ja": "支配するプレイヤーがいない行・列は、マスの数字の合計を表示します"
                            "(得点にはなりません)。"},
    # the move log
    "move_roll": {"en": "The die shows {n}.", "ja": "サイコロの目は {n}。"},
    "move_place": {"en": "{name} writes {n} in row {row}, column {column}.",
                   "ja": "{name} が {row} 行 {column} 列に {n} を書き込みました。"},
    "totals_chart": {"en": "Totals, number by number", "ja": "合計値の推移"},
    "cells_written": {"en": "Cells written", "ja": "書き込んだマス"},
    "lines_dominated": {"en": "Lines dominated", "ja": "支配した行・列"},
    "rules_help": {
        "en": "Roll the die, then write the number in an empty cell of the grid in your "
              "colour; players take turns.\n"
              "You dominate a row or column (with diagonals: a diagonal too) where you have "
              "written more numbers than anyone else. When the grid is full, each dominated "
              "line's total goes to its dominator; a line whose every cell is the dominator's "
              "earns a +10 bonus.\n"
              "The highest total wins; equal totals are a draw.",
        "ja": "サイコロを振り、出た目をマス目の空いているマスに自分の色で書き込みます。"
              "手番は交互です。\n"
              "ほかのプレイヤーより多く数字を書き込んだ行・列(斜めありなら斜めも)を"
              "支配します。マス目が埋まったら、支配している行・列の合計値がそのプレイヤーの"
              "得点になり、すべてのマスが支配したプレイヤーのものならボーナス +10。\n"
              "合計値が最も多いプレイヤーの勝ち。同じなら引き分けです。"},
    # the tally
    "tally": {"en": "Tally", "ja": "集計"},
    "line_points": {"en": "Rows and columns", "ja": "行・列"},
    "line_points_with_diagonals": {"en": "Rows, columns and diagonals", "ja": "行・列・斜め"},
    "area": {"en": "Area", "ja": "面積支配"},
    "area_group": {"en": "Largest group (cells)", "ja": "縦横でつながっている最大マス目数"},
    "handicap": {"en": "Handicap", "ja": "ハンデ"},
    "projected": {"en": "Projected", "ja": "予想"},
    "projected_help": {
        "en": "Projected: the total if every empty cell of the lines each player dominates now "
              "gets an average roll ({mean}).",
        "ja": "予想:いま支配している行・列の空いているマスに平均的な目 ({mean}) が"
              "入った場合の合計値。"},
    "line": {"en": "Line", "ja": "行・列"},
    "line_with_diagonals": {"en": "Line", "ja": "行・列・斜め"},
    "line_row": {"en": "Row", "ja": "行"},
    "line_column": {"en": "Column", "ja": "列"},
    "line_diagonal": {"en": "Diagonal", "ja": "斜め"},
    "dominator": {"en": "Dominated by", "ja": "支配"},
    "bonus": {"en": "Bonus", "ja": "ボーナス"},
    # how a game ends (rules.dice216.Reason; {total} is the top total)
    "reason.highest_total": {"en": "{winner} has the highest total, {total}.",
                             "ja": "合計値 {total} で {winner} の勝ちです。"},
    "reason.equal_totals": {"en": "{tied} have equal highest totals ({total}): a draw.",
                            "ja": "{tied} の合計値が同じ ({total}) で、引き分けです。"},
    # the options (the new-game form)
    "option.line_total": {"en": "A dominated line scores", "ja": "支配した行・列の得点"},
    "help.line_total": {
        "en": "Every number in the line, as seed 004 says (the line's total goes to its "
              "dominator), or only the dominator's own numbers, which departs from the seed.",
        "ja": "その行・列のすべての数字の合計値(ルールどおり「自分が支配している列および行の"
              "合計値」)、または支配したプレイヤー自身の数字だけ(ルールとは異なる)。"},
    "choice.line_total.all": {"en": "all its numbers", "ja": "すべての数字の合計値"},
    "choice.line_total.own": {"en": "the dominator's own numbers", "ja": "自分の数字だけ"},
    "option.diagonals": {"en": "Diagonals", "ja": "斜め"},
    "help.diagonals": {
        "en": "Diagonals are scored as lines too (the seed's variant); which ones is the next "
              "option.",
        "ja": "支配の計算に斜めも含める(ヴァリエーション)。どの斜めかは次のオプションで選ぶ。"},
    "option.diagonal_cells": {"en": "Which diagonals", "ja": "計算する斜め"},
    "help.diagonal_cells": {
        "en": "As the seed says, only the six-cell parts: the diagonals of exactly six cells "
              "(corner to corner on 6×6, four of them on 8×8 and 12×12; 4×4 has none, so it "
              "needs the other choice). Corner to corner scores the two long diagonals on every "
              "grid, which departs from the seed on 4×4, 8×8 and 12×12.",
        "ja": "ルールどおり「6マスの部分のみを計算する」:ちょうど6マスの斜め(6×6 では角から"
              "角、8×8 と 12×12 では4本。4×4 にはないので、もう一方を選ぶ)。角から角は"
              "どのマス目でも2本の長い斜めを計算し、4×4・8×8・12×12 ではルールとは異なる。"},
    "choice.diagonal_cells.six": {"en": "the six-cell parts", "ja": "6マスの部分のみ"},
    "choice.diagonal_cells.full": {"en": "corner to corner", "ja": "角から角まで"},
    "option.handicap": {"en": "Handicap", "ja": "ハンデ"},
    "help.handicap": {
        "en": "The second player rolls the die once at the start and adds the number to their "
              "final total. On with diagonals by default, as the seed lists it there; off with "
              "diagonals, or on without them, departs from the seed.",
        "ja": "後手はゲームスタート時にダイスを1つ振り、その数字を最終計算時にハンデとして"
              "合計値に合算する。既定では斜めありのときオン(ルールではそこに書かれている)。"
              "斜めありでオフ、斜めなしでオンはルールとは異なる。"},
    "option.size": {"en": "Grid", "ja": "マス目"},
    "help.size": {
        "en": "6×6 is the standard game; 4×4 and 8×8 change the difficulty (each with its own "
              "die); 12×12 is the grid for 3–4 players, and the only one they play on.",
        "ja": "6×6 が標準。4×4 と 8×8 はマス目を増減させて難易度をコントロールする"
              "(それぞれ専用のダイス)。12×12 は3人プレイ、4人プレイ用で、3人・4人では"
              "このマス目だけで遊ぶ。"},
    "choice.size.4": {"en": "4×4 (four-sided die)", "ja": "4×4(4面ダイス)"},
    "choice.size.6": {"en": "6×6 (six-sided die)", "ja": "6×6(6面ダイス)"},
    "choice.size.8": {"en": "8×8 (eight-sided die)", "ja": "8×8(8面ダイス)"},
    "choice.size.12": {"en": "12×12 (3–4 players)", "ja": "12×12(3人プレイ、4人プレイ)"},
    "option.die_faces": {"en": "Faces of the die", "ja": "ダイスの面数"},
    "help.die_faces": {
        "en": "The die that goes with the grid: 4, 6 or 8 faces for 4×4, 6×6 and 8×8, as the "
              "seed says, and 6 on 12×12, where it names none. Any other die (2 to 20 faces) "
              "departs from the seed.",
        "ja": "マス目に合わせたダイス:ルールどおり 4×4・6×6・8×8 では4面・6面・8面、ルールに"
              "記載のない 12×12 では6面。それ以外のダイス(2〜20面)はルールとは異なる。"},
    "option.area": {"en": "Area", "ja": "面積支配"},
    "help.area": {
        "en": "Each player's largest group of their own cells joined side to side (not corner "
              "to corner) is counted; the larger group scores 1 point per cell. Equal groups "
              "score nothing.",
        "ja": "自陣営が縦横でつながっている最大マス目数を計算し、多いほうに1マス1点加算する。"
              "同数ならどちらにも加算しない。"},
    "option.first_player": {"en": "First player", "ja": "最初の手番"},
    "help.first_player": {
        "en": "Who writes first, or chosen at random. The seed leaves it to the table: whoever "
              "rolled dice most recently decides how.",
        "ja": "最初に記入するプレイヤー、またはランダム。ルールでは、最近ダイスを振った人が"
              "任意の方法で手番を決める。"},
    # what "as the rules say" means for an option whose default depends on the others
    "auto.handicap": {"en": "As the rules say: on with diagonals, else off",
                      "ja": "ルールどおり:斜めありならオン、なしならオフ"},
    "auto.size": {"en": "From the number of players: 6×6 for two, 12×12 for three or four",
                  "ja": "人数で決める:2人は 6×6、3人・4人は 12×12"},
    "auto.die_faces": {"en": "The grid's own die (4, 6 or 8 faces; 6 on 12×12)",
                       "ja": "マス目に合わせたダイス(4面・6面・8面、12×12 は6面)"},
}

PANEL = PanelGame(id="dice216", folder=Path(__file__).parent, scripts=("board.js",),
                  styles=("board.css",), texts=TEXTS)
