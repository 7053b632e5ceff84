"""ICO on the panel: the flat net drawn from the seat's view (``board.js``, ``board.css``) and
ICO's words in English and Japanese (seed 003's words: ``docs/glossary.md``)."""

from __future__ import annotations

from pathlib import Path

from rules.ico.geometry import FACE_IDS
from web_panel.games import PanelGame, Words


def _start_faces() -> dict[str, Words]:
    """A label for every face the black tile may start on; the T faces ring the centre (seed
    003: 中央付近の任意の三角形)."""
    return {
        f"choice.start_face.{face}": (
            {"en": f"Face {face} (near the centre)", "ja": f"三角形 {face}(中央付近)"}
            if face.startswith("T") else {"en": f"Face {face}", "ja": f"三角形 {face}"})
        for face in FACE_IDS
    }


TEXTS: dict[str, Words] = {
    # the board
    "level": {"en": "Level", "ja": "レベル"},
    "ico_board": {"en": "The ICO board", "ja": "ICOの盤面"},
    "active_face": {"en": "Active face", "ja": "アクティブな三角形"},
    "verb_place": {"en": "Place on", "ja": "マーカーを置く:"},
    "verb_roll": {"en": "Roll across", "ja": "隣に移動:"},
    "action_claim": {"en": "Claim the win", "ja": "勝利宣言"},
    "markers_left_of": {"en": "{name}: {n} markers left", "ja": "{name}:残りのマーカー {n} 個"},
    "markers_placed": {"en": "Markers placed", "ja": "置いたマーカー"},
    "markers_chart": {"en": "Markers placed, move by move", "ja": "置いたマーカーの推移"},
    "tap_edge_place": {"en": "Tap an edge of the active face {face} (here or on the board) to "
                             "place your marker.",
                       "ja": "アクティブな三角形 {face} の辺をタップしてマーカーを置きます"
                             "(ここでも盤面でも)。"},
    "tap_edge_roll": {"en": "Tap an edge of the active face {face} to move it across.",
                      "ja": "アクティブな三角形 {face} の辺をタップして隣に移動します。"},
    "edge_play": {"en": "{verb} {edge} (markers: {markers})",
                  "ja": "{verb} {edge}(マーカー:{markers})"},
    "edge_refused": {"en": "{edge}: not allowed this turn (markers: {markers})",
                     "ja": "{edge}:このターンは選べない(マーカー:{markers})"},
    "edge_not_allowed": {"en": "Edge {edge} is not allowed this turn.",
                         "ja": "このターンは辺 {edge} を選べません。"},
    "not_active_edge": {"en": "{edge} is not an edge of the active face {face}.",
                        "ja": "{edge} はアクティブな三角形 {face} の辺ではありません。"},
    "move_place": {"en": "{name} places a marker on {edge}.",
                   "ja": "{name} が辺 {edge} にマーカーを置きました。"},
    "move_roll": {"en": "{name} moves the active face across {edge}.",
                  "ja": "{name} がアクティブな三角形を辺 {edge} の隣に移動しました。"},
    "move_claim": {"en": "{name} claims the win.", "ja": "{name} が勝利宣言をしました。"},
    # why this turn's edges (rules.ico.balance), in the page's language
    "why_must": {"en": "you must use edge {edge}:", "ja": "辺 {edge} を使います:"},
    "why_use": {"en": "use {edges} ({n} markers):",
                "ja": "{edges} のどれかを使います(マーカー {n} 個):"},
    "why_roll": {"en": "move the face across {edge}, the edge you just used.",
                 "ja": "いま使った辺 {edge} の隣に移動します。"},
    "why_only_without": {"en": "it is the only edge of this face without your colour.",
                         "ja": "この三角形で自分の色のない辺はここだけです。"},
    "why_fewer_without": {"en": "of the two edges without your colour it carries fewer markers.",
                          "ja": "自分の色のない2辺のうち、マーカーが少ない辺です。"},
    "why_two_without": {"en": "the two edges without your colour carry equally many markers.",
                        "ja": "自分の色のない2辺のマーカーの数が同じです。"},
    "why_fewest": {"en": "it carries the fewest markers of this face.",
                   "ja": "この三角形でマーカーが最も少ない辺です。"},
    "why_fewest_several": {"en": "they carry the fewest markers of this face.",
                           "ja": "この三角形でマーカーが最も少ない辺です。"},
    "why_only_empty": {"en": "it is the only empty edge of this face (Level 4).",
                       "ja": "この三角形で空いている辺はここだけです(レベル4)。"},
    "why_empty": {"en": "they are the empty edges of this face (Level 4).",
                  "ja": "この三角形の空いている辺です(レベル4)。"},
    "why_second": {"en": "every edge carries your colour, so a second marker goes on the edge "
                         "with the fewest markers.",
                   "ja": "すべての辺に自分の色があるため、マーカーが最も少ない辺に"
                         "2個目を置きます。"},
    "why_second_several": {"en": "every edge carries your colour, so a second marker goes on "
                                 "one of the edges with the fewest markers.",
                           "ja": "すべての辺に自分の色があるため、マーカーが最も少ない辺のどれかに"
                                 "2個目を置きます。"},
    "why_no_markers": {"en": "you have no markers left: move the face across an edge of your "
                             "choice.",
                       "ja": "マーカーが残っていないため、好きな辺の隣に移動します。"},
    "why_all_held": {"en": "every edge of this face already holds a marker (Level 4): move the "
                           "face across an edge of your choice.",
                     "ja": "この三角形のすべての辺にマーカーがあります(レベル4)。好きな辺の隣に"
                           "移動します。"},
    "why_move_colour": {"en": "all three edges carry your colour: place nothing and move the "
                              "face across an edge of your choice.",
                        "ja": "3辺すべてに自分の色があるため、マーカーを置かずに好きな辺の隣に"
                              "移動します。"},
    "why_move_two": {"en": "all three edges carry two of your markers: place nothing and move "
                           "the face across an edge of your choice.",
                     "ja": "3辺すべてに自分のマーカーが2個あるため、マーカーを置かずに好きな辺の"
                           "隣に移動します。"},
    "rules_help": {
        "en": "The black tile marks the active face. On your turn, place one marker of your "
              "colour on an edge of the active face, then move the active face across that "
              "edge.\n"
              "Which edges you may use is set by the balance rules: colour balance (an edge "
              "without your colour first), then count balance (the edge with the fewest "
              "markers). The board shows the allowed edges and why.\n"
              "Level 1: your colour on all three edges of any face wins. Level 1+: on a face "
              "and on its opposite face (same colour and symbol on the board).",
        "ja": "黒い三角形のタイルがアクティブな三角形です。自分のターンに、アクティブな"
              "三角形の辺に自分の色のマーカーを1つ置き、その辺を越えて隣に移動します。\n"
              "使える辺はバランスのルールで決まります:色バランス ルール(自分の色のない辺が"
              "先)、次に個数バランス ルール(マーカーが最も少ない辺)。盤面に使える辺と"
              "理由が表示されます。\n"
              "レベル1ゲーム:どれか1つの三角形の3辺すべてに自分の色で勝ち。レベル1+ゲーム:"
              "三角形と、その正反対に位置する三角形(盤面で同じ色・同じ記号)の両方。"},
    # the balance rule that decides this turn's edges (rules.ico.balance, the view's balance_rule)
    "ico_rule_colour_balance": {"en": "Colour balance", "ja": "色バランス ルール"},
    "ico_rule_count_balance": {"en": "Count balance", "ja": "個数バランス ルール"},
    "ico_rule_move_only": {"en": "Move only", "ja": "移動のみ(マーカーを置けない)"},
    "ico_rule_no_markers_left": {"en": "No markers left", "ja": "マーカーが残っていない"},
    "ico_rule_one_marker_per_edge": {"en": "One marker per edge",
                                     "ja": "1つの辺にマーカー1個(レベル4)"},
    "ico_rule_redoubling": {"en": "Redoubling", "ja": "同じ辺に2個目のマーカー(レベル2)"},
    "ico_rule_roll": {"en": "Move the active face", "ja": "アクティブな三角形を隣に移動"},
    # the winning figures (rules.ico.figures names them; the board says them in either language)
    "figure_face": {"en": "the three edges of face {a}", "ja": "三角形 {a} の3辺"},
    "figure_faces": {"en": "the edges of face {a} and of its opposite face {b}",
                     "ja": "三角形 {a} と正反対に位置する三角形 {b} の辺"},
    "figure_belt": {"en": "the zig-zag belt between {a} and {b}",
                    "ja": "{a} と {b} の間のジグザグの帯"},
    "figure_double": {"en": "the double triangle around {a}",
                      "ja": "{a} を囲む2倍の大きさの三角形"},
    "figure_doubles": {"en": "the double triangles around {a} and {b}",
                       "ja": "{a} と {b} を囲む2倍の大きさの三角形"},
    "figure_perpendicular": {"en": "perpendicular set {a}", "ja": "直交する辺の組 {a}"},
    # how a game ends (rules.ico.Reason)
    "reason.figure_covered": {
        "en": "{winner}'s colour covers {figure} ({edges}): {winner} wins.",
        "ja": "{winner} の色のマーカーが {figure}({edges})を占め、{winner} の勝ちです。"},
    "reason.out_of_markers": {"en": "Every player has run out of markers: a draw.",
                              "ja": "全員のマーカーが尽きたため、引き分けです。"},
    "reason.board_full": {"en": "Every edge holds a marker (Level 4): a draw.",
                          "ja": "すべての辺にマーカーが置かれたため(レベル4)、引き分けです。"},
    "reason.turn_cap": {"en": "The turn cap of {turn_cap} turns was reached: a draw.",
                        "ja": "ターン上限({turn_cap} ターン)に達したため、引き分けです。"},
    # the options (the new-game form)
    "option.level": {"en": "Level", "ja": "レベル"},
    "help.level": {
        "en": "Which figure wins. 1: your colour on all three edges of any face; 1+: on a face "
              "and on its opposite face. 2 (a zig-zag belt), 2+ (a double-size triangle) and 4 "
              "(three perpendicular pairs of opposite edges) go beyond the article's rules: "
              "they come from the designer's later articles, known only in part. Level 3 is "
              "unknown and not offered.",
        "ja": "勝利となる図形。1:任意の1つの三角形の3辺に自分の色のマーカー。1+:三角形と、"
              "その正反対に位置する三角形の両方。2(ジグザグの帯)、2+(2倍の大きさの三角形)、"
              "4(直交する3組の向かい合う辺)はルールの記事の続編による拡張で、一部しか"
              "わかっていない。レベル3は不明のため選べない。"},
    "choice.level.1": {"en": "Level 1 (Beginner's Game)", "ja": "レベル1ゲーム"},
    "choice.level.1+": {"en": "Level 1+ (Beginner's + Game)", "ja": "レベル1+ゲーム"},
    "choice.level.2": {"en": "Level 2: a zig-zag belt", "ja": "レベル2:ジグザグの帯"},
    "choice.level.2+": {"en": "Level 2+: a double-size triangle",
                        "ja": "レベル2+:2倍の大きさの三角形"},
    "choice.level.4": {"en": "Level 4: perpendicular pairs of edges",
                       "ja": "レベル4:直交する辺の組"},
    "option.claim": {"en": "Claiming a win", "ja": "勝利宣言"},
    "help.claim": {
        "en": "Automatic: the box announces a win the moment it is made. This departs from "
              "the article's rules, where a win may only be claimed on one's own turn and a "
              "win the player overlooks lets play go on. By hand: the player presses Claim the "
              "win on their own turn, as the rules say.",
        "ja": "自動:勝利した瞬間に本体が勝利を告げる。これはルールの「自分のターンでしか勝利"
              "宣言を行えない。もしも本人が勝利を見逃した場合はゲームを続行する。」とは異なる。"
              "手動:ルールどおり、自分のターンに「勝利宣言」を押す。"},
    "choice.claim.auto": {"en": "automatic", "ja": "自動"},
    "choice.claim.manual": {"en": "by hand (as the rules say)", "ja": "手動(ルールどおり)"},
    "option.turn_cap": {"en": "Turn cap", "ja": "ターン上限"},
    "help.turn_cap": {
        "en": "After this many turns the game ends in a draw (or no limit). The article's "
              "rules have no draw: a cap goes beyond them.",
        "ja": "このターン数に達するとゲームは引き分けで終わる(または制限なし)。ルールには"
              "引き分けがなく、上限はルールにない追加である。"},
    "option.start_face": {"en": "First active face", "ja": "最初のアクティブな三角形"},
    "help.start_face": {
        "en": "The face the black tile starts on (named as on the board), or random. The rules "
              "put it on any face near the centre of the paper board; the solid may land on "
              "any face, so every face is offered.",
        "ja": "黒い三角形のタイルを最初に置く三角形(盤面の名前)、またはランダム。ルールでは"
              "紙の展開図の中央付近の任意の三角形に置く。立体ではどの三角形にもなりうるため、"
              "すべての三角形を選べる。"},
    **_start_faces(),
    "option.first_player": {"en": "First player", "ja": "最初の手番のプレイヤー"},
    "help.first_player": {
        "en": "The player who takes the first turn, or chosen at random. The rules leave it to "
              "the table.",
        "ja": "最初のターンを行うプレイヤー、またはランダム。ルールには決め方の記述がない。"},
    "option.double_opposite": {"en": "Both double triangles (Level 2+)",
                               "ja": "正反対の2倍の三角形も(レベル2+)"},
    "help.double_opposite": {
        "en": "Level 2+ only, the harder variant: cover a double-size triangle and also the "
              "one opposite it (an extended level, beyond the article's rules).",
        "ja": "レベル2+のみの難しい変種:2倍の大きさの三角形に加え、その正反対に位置する"
              "2倍の三角形も占める(ルールの記事の続編による拡張)。"},
}

PANEL = PanelGame(id="ico", folder=Path(__file__).parent, scripts=("board.js",),
                  styles=("board.css",), texts=TEXTS)
